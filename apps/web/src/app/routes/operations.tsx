import type { QueryClient } from '@tanstack/react-query'
import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { Messages } from '@trove/contracts/messages'
import { currentUserQuery } from '../../features/auth/api/currentUser'
import { notify } from '../../lib/notify'
import { loadChunk } from '../chunks'

/** Operations screens are for administrators only; others are told so and sent home. */
async function adminOnly({ context }: { context: unknown }) {
  const { queryClient } = context as { queryClient: QueryClient }
  const user = await queryClient.ensureQueryData(currentUserQuery())
  if (!user.admin) {
    notify({ color: 'red', message: Messages.notAuthorized, autoClose: 4500 })
    throw redirect({ to: '/', replace: true })
  }
}

/** Admin → Monitoring (service status, system logs) and the Support Zone, under the signed-in layout. */
export function operationsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: 'monitoring/service-status',
      staticData: { name: 'admin.monitoring.service-status', title: 'Service Status' },
      beforeLoad: adminOnly,
      component: lazyRouteComponent(
        () => loadChunk('service-status', () => import('../../features/operations/ServiceStatusPage')),
        'ServiceStatusPage',
      ),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: 'monitoring/system_logs',
      staticData: { name: 'admin.monitoring.system_logs', title: 'System Logs' },
      beforeLoad: adminOnly,
      component: lazyRouteComponent(
        () => loadChunk('system-logs', () => import('../../features/operations/SystemLogsPage')),
        'SystemLogsPage',
      ),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: 'support-zone',
      staticData: { name: 'admin.support-zone', title: 'Support Zone' },
      beforeLoad: adminOnly,
      component: lazyRouteComponent(
        () => loadChunk('support-zone', () => import('../screens/SupportZoneScreen')),
        'SupportZoneScreen',
      ),
    }),
  ]
}
