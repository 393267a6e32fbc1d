import type { QueryClient } from '@tanstack/react-query'
import { createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { getInvitation } from '../features/auth/api/accounts'
import { currentUserQuery } from '../features/auth/api/currentUser'
import { logout } from '../features/auth/api/logout'
import {
  getAutoRedirectState,
  getLoginRelatedData,
  getSamlLogoutUrl,
  getSamlRegistrationId,
  resolveRedirectTo,
} from '../features/auth/api/sso'
import { ScreenLoader } from '../ui/ScreenLoader'
import {
  autoRedirectTarget,
  consolePathOf,
  type LoginSearch,
  parseLoginSearch,
  samlLogoutTarget,
  shouldAskAutoRedirect,
} from './autoRedirectLogin'
import { loadChunk } from './chunks'
import { saveCliLogin, storedCliLogin } from './cliLogin'
import { cliGuard, cliRegistrationGuard, hashRedirect, internalErrorGuard, invitationGuard, sessionGuard } from './guards'
import { appLayout, currentUser, rootRoute } from './layouts'
import { previousPath, rememberPath } from './navigation'
import { resolvePostLoginPath, savePostLoginPath, takePostLoginPath } from './postLoginPath'
import { RouteError } from './RouteError'
import { follow, screen } from './routeHelpers'
import type { RouterContext } from './routerContext'
import { accessRoutes } from './routes/access'
import { contactRoutes } from './routes/contact'
import { gitIntegrationRoutes } from './routes/gitIntegrations'
import { integrationsRoutes } from './routes/integrations'
import { operationsRoutes } from './routes/operations'
import { packagesRoutes } from './routes/packages'
import { repositoryRoutes } from './routes/repositories'
import { scannerRoutes } from './routes/scanner'
import { securitySearchRoutes } from './routes/securitySearch'
import { shellRoutes } from './routes/shell'
import { ssoRoutes } from './routes/sso'

export type { RouterContext }

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The route name the specification uses. */
    name?: string
    /** The screen title, used for the page title. */
    title?: string
  }
}

/** Full-page navigation away from the console; the router waits while the browser leaves. */
function leaveFor(url: string): Promise<never> {
  window.location.assign(url)
  return new Promise<never>(() => {})
}

/**
 * The login screen's entry (shell §4.2, §4.4): a redirectTo is resolved through the redirect call
 * and kept as the post-login path; then, unless arriving from a login path, the server is asked
 * about auto-redirect, and if it is on, the login data and SAML registration id are fetched, the
 * session is ended and the browser goes to the single-sign-on provider link.
 */
async function loginEntry(search: LoginSearch, queryClient: QueryClient): Promise<void> {
  if (search.redirectTo) {
    const resolved = await resolveRedirectTo(search.redirectTo).catch(() => null)
    const path = resolved ? consolePathOf(resolved.url) : null
    if (path) savePostLoginPath(path)
  }
  if (!shouldAskAutoRedirect(previousPath(), search)) return
  const state = await getAutoRedirectState().catch(() => null)
  if (!state?.isAutoRedirectLogin) return
  const [data] = await Promise.all([getLoginRelatedData().catch(() => undefined), getSamlRegistrationId().catch(() => null)])
  const target = autoRedirectTarget(true, data)
  if (!target) return
  await logout()
  queryClient.clear()
  await leaveFor(target)
}

// Pages anyone may see, without the application frame.
const publicLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_public',
  component: lazyRouteComponent(() => loadChunk('public-layout', () => import('./PublicLayout')), 'PublicLayout'),
})

const notFoundRoute = createRoute({
  getParentRoute: () => publicLayout,
  path: '/404',
  staticData: { name: '404', title: 'Page not found' },
  component: screen('not-found', () => import('../features/errors/NotFoundPage'), 'NotFoundPage'),
})
const notAcceptableRoute = createRoute({
  getParentRoute: () => publicLayout,
  path: '/406/$requestId',
  staticData: { name: '406', title: 'Not acceptable' },
  component: screen('not-acceptable', () => import('./screens/NotAcceptableScreen'), 'NotAcceptableScreen'),
})
const internalErrorRoute = createRoute({
  getParentRoute: () => publicLayout,
  path: '/500',
  staticData: { name: '500', title: 'Error' },
  beforeLoad: ({ context }) => follow(internalErrorGuard(previousPath()), context.queryClient),
  component: screen('internal-error', () => import('../features/errors/InternalErrorPage'), 'InternalErrorPage'),
})

// Sign-in screens: public, and a signed-in user is sent on.
const loginRoute = createRoute({
  getParentRoute: () => publicLayout,
  path: '/login',
  beforeLoad: async ({ context, location }) => {
    saveCliLogin(location.search as Record<string, unknown>)
    await follow(
      sessionGuard({ public: true, login: true }, await currentUser(context.queryClient), { anonymousAccess: false }),
      context.queryClient,
    )
  },
})
/** The provider hand-off's optional `?name=`, which picks one of several providers of a type. */
const providerNameSearch = (search: Record<string, unknown>): { name?: string } =>
  typeof search.name === 'string' && search.name ? { name: search.name } : {}
const loginRoutes = [
  createRoute({
    getParentRoute: () => loginRoute,
    path: '/',
    staticData: { name: 'login', title: 'Login' },
    validateSearch: parseLoginSearch,
    // Not on preload (a hovered link): the entry may end the session and leave the console.
    beforeLoad: ({ search, context, preload }) => (preload ? undefined : loginEntry(search, context.queryClient)),
    component: screen('login', () => import('./screens/LoginScreen'), 'LoginScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'otp-login',
    staticData: { name: 'otp-login', title: 'One-time code' },
    component: screen('otp-login', () => import('./screens/MfaScreens'), 'OtpLoginScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'mfa-enroll',
    staticData: { name: 'mfa-enroll', title: 'Multi-factor authentication' },
    component: screen('mfa-enroll', () => import('./screens/MfaScreens'), 'MfaEnrollScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'forgot-password',
    staticData: { name: 'forgot-password', title: 'Forgot password' },
    component: screen('forgot-password', () => import('./screens/PasswordScreens'), 'ForgotPasswordScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'reset-password',
    staticData: { name: 'reset-password', title: 'Reset password' },
    validateSearch: (search: Record<string, unknown>) => ({
      key: typeof search.key === 'string' ? search.key : String(search.key ?? ''),
    }),
    component: screen('reset-password', () => import('./screens/PasswordScreens'), 'ResetPasswordScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'change-password/{-$userName}',
    staticData: { name: 'change-password', title: 'Change password' },
    component: screen('change-password', () => import('./screens/PasswordScreens'), 'ChangePasswordScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'registration',
    staticData: { name: 'registration', title: 'Registration' },
    component: screen('registration', () => import('./screens/AccountScreens'), 'RegistrationScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'invitation',
    staticData: { name: 'invitation', title: 'Invitation' },
    validateSearch: (search: Record<string, unknown>) => ({
      token: typeof search.token === 'string' ? search.token : String(search.token ?? ''),
    }),
    // Shell §4.2: a missing or invalid invitation token redirects to login with logout.
    beforeLoad: async ({ search, context }) => {
      const email = search.token
        ? await getInvitation(search.token).then(
            (i) => i.email,
            () => null,
          )
        : null
      if (!email) await follow(invitationGuard(), context.queryClient)
      return { invitationEmail: email ?? '' }
    },
    component: screen('invitation', () => import('./screens/AccountScreens'), 'InvitationScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'cli-registration',
    staticData: { name: 'cli-registration', title: 'Command-line login' },
    // The login route has stored the client's values from the query by now.
    beforeLoad: ({ context }) => follow(cliRegistrationGuard(storedCliLogin() !== null), context.queryClient),
    component: screen('cli-registration', () => import('./screens/CliScreens'), 'CliRegistrationScreen'),
  }),
  createRoute({
    getParentRoute: () => loginRoute,
    path: 'sso/$ssoLoginType',
    staticData: { name: 'sso', title: 'Single sign-on' },
    validateSearch: providerNameSearch,
    component: screen('sso-login', () => import('./screens/SsoHandOffScreens'), 'SsoLoginScreen'),
  }),
]
// /auth is an alias of /login.
const authAliasRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/$',
  beforeLoad: ({ params }) => {
    throw redirect({ href: `/ui/login/${params._splat ?? ''}`.replace(/\/$/, ''), replace: true })
  },
})
const authAliasRootRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth',
  beforeLoad: () => {
    throw redirect({ to: '/login', replace: true })
  },
})

const logoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/logout',
  staticData: { name: 'logout' },
  // Shell §4.2: reset the user data, log out, and a SAML user goes on to the SAML logout URL.
  beforeLoad: async ({ context, preload }) => {
    // A hovered Logout link preloads this route: only a real navigation signs out.
    if (preload) return
    const user = context.queryClient.getQueryData(currentUserQuery().queryKey)
    const [rt] = await Promise.all([import('./shellRuntime'), logout()])
    rt.resetStartup()
    // Packages §4: the package browser's state is cleared on logout.
    ;(await import('../features/packages/packagesState')).resetPackagesState()
    context.queryClient.clear()
    if (user?.realm === 'saml') {
      const target = samlLogoutTarget(user, (await getSamlLogoutUrl().catch(() => null))?.logoutUrl)
      if (target) await leaveFor(target)
    }
    throw redirect({ to: '/login', search: { logout: true }, replace: true })
  },
})

const publicScreens = [
  createRoute({
    getParentRoute: () => publicLayout,
    path: '/auth-provider/$type',
    staticData: { name: 'auth-provider', title: 'Authentication provider' },
    validateSearch: providerNameSearch,
    component: screen('auth-provider', () => import('./screens/SsoHandOffScreens'), 'AuthProviderScreen'),
  }),
  createRoute({
    getParentRoute: () => publicLayout,
    path: '/plugs/extension/cli',
    staticData: { name: 'cli', title: 'Command-line login' },
    beforeLoad: async ({ context }) => {
      await follow(cliGuard(await currentUser(context.queryClient), storedCliLogin() !== null), context.queryClient)
      throw redirect({ to: '/plugs/extension/cli/verify', replace: true })
    },
  }),
  createRoute({
    getParentRoute: () => publicLayout,
    path: '/plugs/extension/cli/verify',
    staticData: { name: 'cli-verify', title: 'Command-line login' },
    beforeLoad: async ({ context }) =>
      follow(cliGuard(await currentUser(context.queryClient), storedCliLogin() !== null), context.queryClient),
    component: screen('cli-verify', () => import('./screens/CliScreens'), 'CliVerifyScreen'),
  }),
]

const landing = async ({ context, location }: { context: RouterContext; location: { hash: string } }) => {
  // Shell §2.4: old links carrying a hash.
  const old = hashRedirect(location.hash ? `#${location.hash.replace(/^#/, '')}` : '')
  if (old)
    throw redirect({
      href: `/ui${old.to}${old.search ? `?${new URLSearchParams(old.search as Record<string, string>)}` : ''}`,
      replace: true,
    })
  const user = await currentUser(context.queryClient)
  if (!user.anonymous) {
    // The frame's code loads while the start-up calls run, not after them.
    void loadChunk('app-shell', () => import('./AppShell')).catch(() => {})
    if (user.admin) void import('./screens/ShellScreens').catch(() => {})
    const path = resolvePostLoginPath(takePostLoginPath(), user)
    // Shell §4.2: an admin arriving from sign-in may be sent to quick setup or the questionnaire.
    if (user.admin && previousPath()?.startsWith('/login')) {
      const rt = await import('./shellRuntime')
      await rt.startApplication(context.queryClient)
      const status = context.queryClient.getQueryData(rt.onboardingStatusQuery().queryKey)
      await follow(rt.signInOnboardingGuard(rt.contextFromCache(context.queryClient), status, path), context.queryClient)
    }
    if (path !== '/') throw redirect({ href: `/ui${path}`, replace: true })
  }
  const rt = await import('./shellRuntime')
  await rt.startApplication(context.queryClient)
  await follow(rt.landingGuard(rt.contextFromCache(context.queryClient), storedCliLogin() !== null), context.queryClient)
}
const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', beforeLoad: landing })
const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: '/home', beforeLoad: landing })

const overviewRoute = createRoute({
  getParentRoute: () => appLayout,
  path: '/overview',
  staticData: { name: 'overview', title: 'Overview' },
  component: screen('overview', () => import('../features/overview/OverviewPage'), 'OverviewPage'),
})

const profileRoute = createRoute({
  getParentRoute: () => appLayout,
  path: '/user_profile',
  staticData: { name: 'user_profile', title: 'Edit profile' },
  component: screen('user-profile', () => import('./screens/ProfileScreen'), 'ProfileScreen'),
})

const authorizationRoute = createRoute({
  getParentRoute: () => appLayout,
  path: '/authorization',
  staticData: { name: 'authorization', title: 'Authorization' },
  component: screen('authorization', () => import('../features/authorization/AuthorizationPage'), 'AuthorizationPage'),
})
const accountPortalRoute = createRoute({
  getParentRoute: () => appLayout,
  path: '/user/my-jfrog-redirect',
  staticData: { name: 'my-account-redirect', title: 'Account portal' },
  component: screen(
    'account-portal',
    () => import('../features/accountPortal/AccountPortalRedirectPage'),
    'AccountPortalRedirectPage',
  ),
})

const onboardingScreens = (
  [
    ['/onboarding', 'onboarding', 'Welcome', 'OnboardingScreen'],
    ['/get_started', 'get_started', 'Getting started', 'GettingStartedScreen'],
    ['/tour_get_started', 'tour_get_started', 'Getting started', 'TourGettingStartedScreen'],
  ] as const
).map(([path, name, title, component]) =>
  createRoute({
    getParentRoute: () => appLayout,
    path,
    staticData: { name, title },
    component: screen('onboarding', () => import('./screens/OnboardingScreens'), component),
  }),
)
const shell = shellRoutes(appLayout)

const routeTree = rootRoute.addChildren([
  publicLayout.addChildren([
    notFoundRoute,
    notAcceptableRoute,
    internalErrorRoute,
    loginRoute.addChildren(loginRoutes),
    ...publicScreens,
  ]),
  authAliasRootRoute,
  authAliasRoute,
  logoutRoute,
  indexRoute,
  homeRoute,
  appLayout.addChildren([
    overviewRoute,
    profileRoute,
    authorizationRoute,
    accountPortalRoute,
    ...integrationsRoutes(appLayout),
    ...onboardingScreens,
    ...packagesRoutes(appLayout),
    ...gitIntegrationRoutes(appLayout),
    ...securitySearchRoutes(appLayout),
    ...shell.appRoutes,
    // Every /admin/* screen attaches here, so the admin guard and menu apply to it.
    shell.adminRoute.addChildren([
      ...shell.adminRoutes,
      ...operationsRoutes(shell.adminRoute),
      ...ssoRoutes(shell.adminRoute),
      ...accessRoutes(shell.adminRoute),
      ...repositoryRoutes(shell.adminRoute),
      ...contactRoutes(shell.adminRoute),
      ...scannerRoutes(shell.adminRoute),
    ]),
  ]),
])

export function createAppRouter(queryClient: QueryClient) {
  const router = createRouter({
    routeTree,
    basepath: '/ui',
    context: { queryClient },
    defaultErrorComponent: RouteError,
    defaultPendingComponent: ScreenLoader,
    defaultPreload: 'intent',
    notFoundMode: 'root',
  })
  router.subscribe('onResolved', ({ toLocation }) => rememberPath(toLocation.pathname))
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
