import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, createRoute, lazyRouteComponent, Navigate } from '@tanstack/react-router'
import type { UserData } from '@trove/contracts/auth'
import { currentUserQuery } from '../features/auth/api/currentUser'
import { loadChunk } from './chunks'
import { sessionGuard } from './guards'
import { savePostLoginPath } from './postLoginPath'
import { RootLayout } from './RootLayout'
import { RouteError } from './RouteError'
import { follow } from './routeHelpers'
import type { RouterContext } from './routerContext'

/** The signed-in user, or the anonymous one (from the cache when fresh). */
export async function currentUser(queryClient: QueryClient): Promise<UserData> {
  return queryClient.ensureQueryData(currentUserQuery())
}

/** The root of every route. */
export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  errorComponent: RouteError,
  notFoundComponent: () => <Navigate to="/404" replace />,
})

// Everything else lives in the application frame and needs a session (or anonymous access).
export const appLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_app',
  beforeLoad: async ({ context, location }) => {
    const user = await currentUser(context.queryClient)
    const rt = await import('./shellRuntime')
    // Shell §4.5: the start-up runs once; its failures are silent.
    await rt.startApplication(context.queryClient)
    const ctx = rt.contextFromCache(context.queryClient)
    const result = sessionGuard({ public: false, login: false }, user, ctx)
    // Remember where the user was going, to open it after sign-in.
    if (result.kind === 'redirect' && result.to === '/login') savePostLoginPath(location.href)
    await follow(result, context.queryClient)
    await follow(rt.licenseGuard(location.pathname.replace(/^\/ui/, ''), ctx), context.queryClient)
  },
  component: lazyRouteComponent(() => loadChunk('app-shell', () => import('./AppShell')), 'AppShell'),
})

export type AppLayoutRoute = typeof appLayout
