import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { format } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useEffect } from 'react'
import { AuthCard } from './AuthCard'
import { useLoginRelatedData } from './api/accounts'
import { handOff } from './ssoHandOff'

const assignLocation = (url: string) => window.location.assign(url)

export interface SsoHandOffPageProps {
  /** The provider type from the path: saml, oauth, or an OpenID Connect kind (keycloak, gitlab, …). */
  type: string
  /** Picks one provider by name when several of the type are set up. */
  name?: string
  /** Leaves the console for the provider (a full page load). */
  leave?: (url: string) => void
}

/**
 * The provider sign-in hand-off (/auth-provider/{type}, /login/sso/{type}): finds the enabled
 * provider of that type in the login data and sends the browser to its sign-in link; several of
 * the type are offered as a choice; none is said plainly, with the way back to the sign-in form.
 */
export function SsoHandOffPage({ type, name, leave = assignLocation }: SsoHandOffPageProps) {
  const loginData = useLoginRelatedData()
  const next = loginData.data ? handOff(type, name, loginData.data) : null
  const target = next?.kind === 'leave' ? next.provider.url : null
  useEffect(() => {
    if (target) leave(target)
  }, [target, leave])
  const back = (
    <Anchor component={Link} to="/login" size="sm">
      Back to sign in
    </Anchor>
  )
  return (
    <AuthCard title="Single sign-on" subtitle={`Provider type: ${type}`}>
      {loginData.isPending && <Loader size="sm" aria-label="Loading" />}
      {(loginData.isError || next?.kind === 'none') && (
        <Stack gap="sm">
          <Alert color="gray" variant="light" role="status" title="No provider">
            {format(ScreenMessages.authProviderNotConfigured, { type })}
          </Alert>
          {back}
        </Stack>
      )}
      {next?.kind === 'leave' && (
        <Stack gap="xs" role="status">
          <Text>{format(ScreenMessages.authProviderLeaving, { name: next.provider.name })}</Text>
          <Anchor href={next.provider.url} size="sm">
            Continue to {next.provider.name}
          </Anchor>
        </Stack>
      )}
      {next?.kind === 'choose' && (
        <Stack gap="xs">
          <Text size="sm">{ScreenMessages.authProviderChoose}</Text>
          {next.providers.map((p) => (
            <Button key={p.name} component="a" href={p.url} variant="default" fullWidth>
              Sign in with {p.name}
            </Button>
          ))}
          {back}
        </Stack>
      )}
    </AuthCard>
  )
}
