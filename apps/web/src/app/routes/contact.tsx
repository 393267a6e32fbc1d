import type { QueryClient } from '@tanstack/react-query'
import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { currentUserQuery } from '../../features/auth/api/currentUser'
import { CONTACT_REQUESTS_PATH } from '../../features/shell/adminPaths'
import { notify } from '../../lib/notify'
import { loadChunk } from '../chunks'

/** Administrators only; others are told so and sent home. */
async function adminOnly({ context }: { context: unknown }) {
  const { queryClient } = context as { queryClient: QueryClient }
  const user = await queryClient.ensureQueryData(currentUserQuery())
  if (!user.admin) {
    notify({ color: 'red', message: Messages.notAuthorized, autoClose: Limits.toastMs })
    throw redirect({ to: '/', replace: true })
  }
}

/** Admin → Platform Configurations → Contact Requests, under the admin layout. */
export function contactRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: CONTACT_REQUESTS_PATH.replace(/^\/admin\//, ''),
      staticData: { name: 'admin.configuration.contact-requests', title: 'Contact Requests' },
      beforeLoad: adminOnly,
      component: lazyRouteComponent(
        () => loadChunk('contact-requests', () => import('../../features/contact/ContactRequestsPage')),
        'ContactRequestsPage',
      ),
    }),
  ]
}
