import { createRoute, type lazyRouteComponent, redirect } from '@tanstack/react-router'
import { ARTIFACTS_TREE_PATH } from '@trove/contracts/searchConstants'
import { legacyBundlesPath } from '../guards'
import type { AppLayoutRoute } from '../layouts'
import { previousPath } from '../navigation'
import { follow, screen } from '../routeHelpers'
import type { RouterContext } from '../routerContext'
import type { ReleaseBundlesSearch } from '../screens/ReleaseBundlesScreen'
import { buildsRoutes } from './builds'

type Screen = ReturnType<typeof lazyRouteComponent>

const shellScreens = () => import('../screens/ShellScreens')
const demoScreens = () => import('../../features/demo/DemoPages')

/** Shell §2.1: entered only when the 'tested' feature is on; otherwise navigation is cancelled. */
const runtime = () => import('../shellRuntime')

const testedOnly = async ({ context }: { context: RouterContext }) => {
  if ((await runtime()).contextFromCache(context.queryClient).features.tested) return
  throw redirect({ to: previousPath() ?? '/', replace: true })
}

const releaseBundlesSearch = (search: Record<string, unknown>): ReleaseBundlesSearch => ({
  query: typeof search.query === 'string' && search.query !== '' ? search.query : undefined,
})

/**
 * The shell's routes (shell §2): the admin layout with its own screens, teasers, redirects and
 * landing tabs. `adminRoute` is the parent of every /admin/* screen: other areas attach theirs to it.
 */
export function shellRoutes(appLayout: AppLayoutRoute) {
  // ---- the admin area (§2.2) ------------------------------------------------------------------
  const adminRoute = createRoute({
    getParentRoute: () => appLayout,
    path: '/admin',
    staticData: { name: 'admin', title: 'Administration' },
    // §4.2: a path under /admin/ uses the administration (or project settings) menu; hidden or
    // disabled items are blocked; non-admins fall back to their landing with the notice.
    beforeLoad: async ({ context, location }) => {
      const { queryClient } = context
      const rt = await runtime()
      return follow(rt.adminPathGuard(location.pathname.replace(/^\/ui/, ''), rt.contextFromCache(queryClient)), queryClient)
    },
  })
  const adminChild = (path: string, name: string, title: string, component: Screen, extra = {}) =>
    createRoute({ getParentRoute: () => adminRoute, path, staticData: { name, title }, component, ...extra })

  const proxiesRoute = createRoute({
    getParentRoute: () => adminRoute,
    path: 'proxies/configuration',
    staticData: { name: 'admin.proxies', title: 'Reverse Proxy' },
  })
  const adminRoutes = [
    createRoute({
      getParentRoute: () => adminRoute,
      path: '/',
      beforeLoad: () => {
        throw redirect({ to: '/admin/management/users', replace: true })
      },
    }),
    adminChild('artifactory/list', 'admin.artifactory', 'Administration', screen('admin-menu', shellScreens, 'AdminMenuScreen')),
    // The configure shortcut to integrations (shell §2.2): set up from the catalogue, where each has its set-up action.
    createRoute({
      getParentRoute: () => adminRoute,
      path: 'configuration/integrations',
      beforeLoad: () => {
        throw redirect({ to: '/integrations', replace: true })
      },
    }),
    adminChild(
      'configuration/general',
      'admin.configuration.general',
      'General Settings',
      screen('general-config', shellScreens, 'GeneralConfigScreen'),
    ),
    adminChild(
      'configuration/security/general',
      'admin.configuration.security',
      'Security Configuration',
      screen('security-config', shellScreens, 'SecurityConfigScreen'),
    ),
    adminChild(
      'license_management/licenses',
      'admin.licenses.licenses',
      'Licenses',
      screen('licenses', shellScreens, 'LicensesScreen'),
    ),
    adminChild('mission_control/topology', 'admin.topology', 'Topology', screen('topology', shellScreens, 'TopologyScreen')),
    adminChild(
      'monitoring/pdn',
      'admin.monitoring.pdn',
      'Peers',
      screen('peers', () => import('../../features/operations/PeersPage'), 'PeersPage'),
    ),
    adminChild(
      'pipelines-teaser',
      'admin.pipelines-teaser',
      'Pipelines',
      screen('pipelines-teaser', shellScreens, 'PipelinesTeaserScreen'),
    ),
    adminChild(
      'security-compliance-teaser',
      'admin.security-compliance-teaser',
      'Security & Compliance',
      screen('security-teaser', shellScreens, 'SecurityTeaserScreen'),
      {
        beforeLoad: async ({ context }: { context: RouterContext }) => {
          const rt = await runtime()
          return follow(rt.securityTeaserGuard(rt.contextFromCache(context.queryClient)), context.queryClient)
        },
      },
    ),
    adminChild(
      'onboarding/quick-setup',
      'admin.quick-setup',
      'Quick Setup',
      screen('quick-setup', shellScreens, 'QuickSetupScreen'),
    ),
    proxiesRoute.addChildren([
      createRoute({
        getParentRoute: () => proxiesRoute,
        path: '/',
        staticData: { name: 'admin.proxies.list', title: 'Reverse Proxy' },
        component: screen('proxies', shellScreens, 'ReverseProxyListScreen'),
      }),
      createRoute({
        getParentRoute: () => proxiesRoute,
        path: 'new',
        staticData: { name: 'admin.proxies.new', title: 'New reverse proxy' },
        component: screen('proxy-new', shellScreens, 'NewReverseProxyScreen'),
      }),
      createRoute({
        getParentRoute: () => proxiesRoute,
        path: 'edit/$proxyName',
        staticData: { name: 'admin.proxies.edit', title: 'Reverse proxy' },
        component: screen('proxy-edit', shellScreens, 'EditReverseProxyScreen'),
      }),
    ]),
  ]

  // ---- teasers and redirects (§2.3–2.5) ------------------------------------------------------
  const appRoutes = [
    createRoute({
      getParentRoute: () => appLayout,
      path: '/demo/admin/$',
      staticData: { name: 'demo.admin', title: 'Administration' },
      beforeLoad: async ({ params, context }) =>
        follow((await runtime()).demoAdminGuard((params as { _splat?: string })._splat ?? ''), context.queryClient),
      component: screen('demo-admin', shellScreens, 'DemoAdminScreen'),
    }),
    createRoute({
      getParentRoute: () => appLayout,
      path: '/release-bundles',
      staticData: { name: 'release-bundles', title: 'Release bundles' },
      // §2.5: without an activeTab, add one: source with Enterprise+ and distribution, else target.
      // The top bar's search lands here with ?query=, which goes along.
      validateSearch: releaseBundlesSearch,
      beforeLoad: async ({ context, search }) => {
        const rt = await runtime()
        const tab = rt.releaseBundlesTab(rt.contextFromCache(context.queryClient))
        throw redirect({ to: '/release-bundles/$activeTab', params: { activeTab: tab }, search, replace: true })
      },
    }),
    createRoute({
      getParentRoute: () => appLayout,
      path: '/release-bundles/$activeTab',
      staticData: { name: 'release-bundles.tab', title: 'Release bundles' },
      validateSearch: releaseBundlesSearch,
      component: screen('release-bundles', () => import('../screens/ReleaseBundlesScreen'), 'ReleaseBundlesScreen'),
    }),
    // A bundle's own address (old /bundles/{tab}/{name}/{version} links land here too): its tab
    // with its drawer open.
    createRoute({
      getParentRoute: () => appLayout,
      path: '/release-bundles/$activeTab/$name/$version',
      staticData: { name: 'release-bundles.bundle', title: 'Release bundles' },
      validateSearch: releaseBundlesSearch,
      component: screen('release-bundles', () => import('../screens/ReleaseBundlesScreen'), 'ReleaseBundlesScreen'),
    }),
    createRoute({
      getParentRoute: () => appLayout,
      path: '/bundles/$',
      beforeLoad: ({ location }) => {
        const to = legacyBundlesPath(location.pathname.replace(/^\/ui/, '')) ?? '/release-bundles'
        throw redirect({ href: `/ui${to}`, replace: true })
      },
    }),
    createRoute({
      getParentRoute: () => appLayout,
      path: '/release-bundles-teaser',
      staticData: { name: 'release-bundles-teaser', title: 'Release bundles' },
      component: screen('release-bundles-teaser', shellScreens, 'ReleaseBundlesTeaserScreen'),
    }),
    createRoute({
      getParentRoute: () => appLayout,
      path: '/topology-teaser',
      staticData: { name: 'topology-teaser', title: 'Topology' },
      component: screen('topology-teaser', shellScreens, 'TopologyTeaserScreen'),
    }),
    // §2.4: the tree's default path is /tree/General; /repos/{path} links land on the same node.
    createRoute({
      getParentRoute: () => appLayout,
      path: '/artifacts/browse',
      beforeLoad: () => {
        throw redirect({
          to: '/artifacts/browse/$',
          params: { _splat: ARTIFACTS_TREE_PATH.replace(/^\/artifacts\/browse\//, '') },
          replace: true,
        })
      },
    }),
    createRoute({
      getParentRoute: () => appLayout,
      path: '/artifacts/browse/$',
      staticData: { name: 'artifacts.browse', title: 'Artifacts' },
      component: screen('artifacts', () => import('../screens/ArtifactsScreen'), 'ArtifactsScreen'),
    }),
    createRoute({
      getParentRoute: () => appLayout,
      path: '/repos/$',
      staticData: { name: 'repos', title: 'Artifacts' },
      beforeLoad: ({ params }) => {
        const rest = (params as { _splat?: string })._splat ?? ''
        throw redirect({ to: '/artifacts/browse/$', params: { _splat: `tree/General/${rest}` }, replace: true })
      },
    }),
    // Onboarding links to /projects (shell §2.2): the projects list.
    createRoute({
      getParentRoute: () => appLayout,
      path: '/projects',
      beforeLoad: () => {
        throw redirect({ to: '/admin/projects/list', replace: true })
      },
    }),
    ...buildsRoutes(appLayout),
  ]
  // ---- the demo area and the template (§2.1), behind the 'tested' feature ---------------------
  const demoRoute = createRoute({
    getParentRoute: () => appLayout,
    path: '/demo',
    staticData: { name: 'demo', title: 'Demo' },
    beforeLoad: testedOnly,
    component: screen('demo', demoScreens, 'DemoLayout'),
  })
  const demoChild = (path: string, name: string, exportName: 'DemoTreePage' | 'DemoGreetingPage' | 'DemoMultiPage') =>
    createRoute({
      getParentRoute: () => demoRoute,
      path,
      staticData: { name, title: 'Demo' },
      component: screen(`demo-${name}`, demoScreens, exportName),
    })
  appRoutes.push(
    demoRoute.addChildren([
      demoChild('/', 'demo.index', 'DemoTreePage'),
      demoChild('tree', 'demo.tree', 'DemoTreePage'),
      demoChild('typescript/greeting', 'demo.greeting', 'DemoGreetingPage'),
      demoChild('multi-microfrontend', 'demo.multi', 'DemoMultiPage'),
    ]) as never,
    createRoute({
      getParentRoute: () => appLayout,
      path: '/template',
      staticData: { name: 'template', title: 'Template' },
      beforeLoad: testedOnly,
      component: screen('template', demoScreens, 'TemplatePage'),
    }) as never,
  )
  return { adminRoute, adminRoutes, appRoutes }
}
