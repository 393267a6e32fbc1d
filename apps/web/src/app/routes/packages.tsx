import { type AnyRoute, createRoute } from '@tanstack/react-router'
import { screen } from '../routeHelpers'

export interface PackagesSearch {
  query?: string
  projectKey?: string
}

/** The packages browser (packages §2): /packages/:packageId?/:versionId?, its search in ?query=. */
export function packagesRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/packages/{-$packageId}/{-$versionId}',
      staticData: { name: 'packages', title: 'Packages' },
      validateSearch: (search: Record<string, unknown>): PackagesSearch => ({
        query: typeof search.query === 'string' && search.query !== '' ? search.query : undefined,
        projectKey: typeof search.projectKey === 'string' && search.projectKey !== '' ? search.projectKey : undefined,
      }),
      component: screen('packages', () => import('../screens/PackagesScreen'), 'PackagesScreen'),
    }),
  ] as const
}
