import { type AnyRoute, createRoute } from '@tanstack/react-router'
import { screen } from '../routeHelpers'

/** The integrations catalogue (packages §2): /integrations. */
export function integrationsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/integrations',
      staticData: { name: 'integrations', title: 'Integrations' },
      component: screen('integrations', () => import('../screens/IntegrationsScreen'), 'IntegrationsScreen'),
    }),
  ] as const
}
