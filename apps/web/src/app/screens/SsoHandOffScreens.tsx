import { useParams, useSearch } from '@tanstack/react-router'
import { SsoHandOffPage } from '../../features/auth/SsoHandOffPage'

/** /auth-provider/{type}: the provider hand-off, for links from outside the console. */
export function AuthProviderScreen() {
  const { type } = useParams({ from: '/_public/auth-provider/$type' })
  const { name } = useSearch({ from: '/_public/auth-provider/$type' })
  return <SsoHandOffPage type={type} name={name} />
}

/** /login/sso/{type}: the same hand-off as a sign-in screen (its guard and the CLI values apply). */
export function SsoLoginScreen() {
  const { ssoLoginType } = useParams({ from: '/_public/login/sso/$ssoLoginType' })
  const { name } = useSearch({ from: '/_public/login/sso/$ssoLoginType' })
  return <SsoHandOffPage type={ssoLoginType} name={name} />
}
