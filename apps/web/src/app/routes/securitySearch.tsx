import { type AnyRoute, createRoute } from '@tanstack/react-router'
import { screen } from '../routeHelpers'

/**
 * The security-compliance search type's results (packages §2: its result route name is
 * security-compliance). What each caller sees is limited by the server to the repositories they read.
 */
export function securitySearchRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/security-compliance',
      staticData: { name: 'security-compliance', title: 'Security search' },
      validateSearch: (search: Record<string, unknown>) => ({
        query: typeof search.query === 'string' && search.query !== '' ? search.query : undefined,
      }),
      component: screen('security-search', () => import('../screens/SecuritySearchScreen'), 'SecuritySearchScreen'),
    }),
  ]
}
