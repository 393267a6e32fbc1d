import type { QueryClient } from '@tanstack/react-query'
import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { Messages } from '@trove/contracts/messages'
import { currentUserQuery } from '../../features/auth/api/currentUser'
import { notify } from '../../lib/notify'
import { loadChunk } from '../chunks'

/** Administrators only: anyone else gets the not-authorized notice and goes home. */
async function adminOnly(context: unknown) {
  const { queryClient } = context as { queryClient: QueryClient }
  const user = await queryClient.ensureQueryData(currentUserQuery())
  if (!user.admin) {
    notify({ color: 'red', message: Messages.notAuthorized, autoClose: 4500 })
    throw redirect({ to: '/', replace: true })
  }
}

/** The single-sign-on administration screens, under the signed-in application layout. */
export function ssoRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: 'configuration/security/oauth',
      staticData: { name: 'admin.security.oauth', title: 'OAuth SSO' },
      beforeLoad: ({ context }) => adminOnly(context),
      component: lazyRouteComponent(
        () => loadChunk('admin-oauth', () => import('../../features/sso/OAuthProvidersPage')),
        'OAuthProvidersPage',
      ),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: 'configuration/security/saml_integration',
      staticData: { name: 'admin.security.saml', title: 'SAML SSO' },
      beforeLoad: ({ context }) => adminOnly(context),
      component: lazyRouteComponent(
        () => loadChunk('admin-saml', () => import('../../features/sso/SamlSettingsPage')),
        'SamlSettingsPage',
      ),
    }),
  ]
}
