import type { QueryClient } from '@tanstack/react-query'
import { type AnyRoute, createRoute, redirect } from '@tanstack/react-router'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { currentUserQuery } from '../../features/auth/api/currentUser'
import { notify } from '../../lib/notify'
import { screen } from '../routeHelpers'

/** The scanner's administration is an administrator's; others are told so and sent home. */
async function adminOnly({ context }: { context: unknown }) {
  const { queryClient } = context as { queryClient: QueryClient }
  const user = await queryClient.ensureQueryData(currentUserQuery())
  if (!user.admin) {
    notify({ color: 'red', message: Messages.notAuthorized, autoClose: Limits.toastMs })
    throw redirect({ to: '/', replace: true })
  }
}

const scannerScreens = () => import('../screens/ScannerScreens')

/**
 * Admin → Security & Compliance: the scanner's policies, watches, violations (with the ignore
 * rules) and advisory database. Under the admin layout, whose guard also blocks them while the
 * scanner module is not running (their menu items are disabled then).
 */
export function scannerRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: 'security_policies',
      staticData: { name: 'admin.security_policies', title: 'Policies' },
      beforeLoad: adminOnly,
      component: screen('security-policies', scannerScreens, 'SecurityPoliciesScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: 'security_watches',
      staticData: { name: 'admin.security_watches', title: 'Watches' },
      beforeLoad: adminOnly,
      component: screen('security-watches', scannerScreens, 'SecurityWatchesScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: 'security_violations',
      staticData: { name: 'admin.security_violations', title: 'Violations' },
      beforeLoad: adminOnly,
      component: screen('security-violations', scannerScreens, 'SecurityViolationsScreen'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: 'security_database',
      staticData: { name: 'admin.security_database', title: 'Advisory database' },
      beforeLoad: adminOnly,
      component: screen('security-database', scannerScreens, 'SecurityDatabaseScreen'),
    }),
  ]
}
