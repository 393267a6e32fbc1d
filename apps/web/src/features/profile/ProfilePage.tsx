import { Alert, Badge, Button, Divider, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import type { Profile } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, type ReactNode, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { ApiKeySection } from './ApiKeySection'
import { useUnlockProfile, useUpdateEmail } from './api/profile'
import { PasswordSection } from './PasswordSection'
import { TokensSection } from './TokensSection'

export interface ProfilePageProps {
  userName: string
  /** The MFA enrolment, composed by the route (it belongs to the sign-in feature). */
  renderMfaEnrollment: (onDone: () => void, password: string) => ReactNode
  /** Users of an OAuth or SAML realm have no password: a recent sign-in at their provider stands in. */
  passwordless?: boolean
}

/** Edit profile: asks for the password once, then shows e-mail, password, MFA, API key and tokens. */
export function ProfilePage({ userName, renderMfaEnrollment, passwordless = false }: ProfilePageProps) {
  const unlock = useUnlockProfile()
  const updateEmail = useUpdateEmail()
  const [password, setPassword] = useState('')
  const [profile, setProfile] = useState<Profile | null>(null)
  const [email, setEmail] = useState('')
  const [enrolling, setEnrolling] = useState(false)

  const submitPassword = (event: FormEvent) => {
    event.preventDefault()
    unlock.mutate(password, {
      onSuccess: (p) => {
        setProfile(p)
        setEmail(p.email ?? '')
      },
    })
  }

  if (!profile) {
    return (
      <>
        <PageHeader title="Edit profile" breadcrumbs={['Edit profile']} />
        <Paper withBorder p="lg" maw={420}>
          <form onSubmit={submitPassword} aria-label="Unlock profile">
            <Stack gap="sm">
              <Text size="sm">
                {passwordless
                  ? 'You signed in through your provider: open your profile within 15 minutes of signing in.'
                  : 'Enter your password to see and change your profile.'}
              </Text>
              {unlock.error && (
                <Alert color="red" variant="light" role="alert">
                  {unlock.error.message || Messages.somethingWentWrong}
                </Alert>
              )}
              {!passwordless && (
                <PasswordInput
                  label="Current password"
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  autoFocus
                />
              )}
              <Button type="submit" loading={unlock.isPending}>
                {passwordless ? 'Open profile' : 'Unlock'}
              </Button>
            </Stack>
          </form>
        </Paper>
      </>
    )
  }

  return (
    <>
      <PageHeader title="Edit profile" breadcrumbs={['Edit profile']} />
      <Paper withBorder p="lg" maw={860}>
        <Stack gap="lg">
          <Group gap="xs">
            <Title order={2} size="h4">
              {profile.name}
            </Title>
            {profile.admin && <Badge variant="light">admin</Badge>}
            <Badge variant="outline" color="gray">
              {profile.realm}
            </Badge>
          </Group>
          <form
            aria-label="Change e-mail"
            onSubmit={(event) => {
              event.preventDefault()
              updateEmail.mutate({ email: email || null, password }, { onSuccess: setProfile })
            }}
          >
            <Group align="end" gap="xs">
              <TextInput
                label="E-mail"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={updateEmail.error ? updateEmail.error.message || Messages.somethingWentWrong : undefined}
                w={320}
              />
              <Button type="submit" variant="default" loading={updateEmail.isPending}>
                Save
              </Button>
              {updateEmail.isSuccess && (
                <Text size="sm" c="green" role="status">
                  Saved
                </Text>
              )}
            </Group>
          </form>
          {!passwordless && (
            <>
              <Divider />
              <PasswordSection userName={userName} currentPassword={password} onChanged={setPassword} />
            </>
          )}
          <Divider />
          <Stack gap="xs">
            <Title order={2} size="h4">
              Two-step verification
            </Title>
            {passwordless ? (
              <Text size="sm">Your provider asks for the second step when you sign in through it.</Text>
            ) : profile.mfaEnabled ? (
              <Text size="sm">On: signing in asks for a code from your authenticator app.</Text>
            ) : enrolling ? (
              renderMfaEnrollment(() => {
                setEnrolling(false)
                setProfile({ ...profile, mfaEnabled: true })
              }, password)
            ) : (
              <Group gap="xs">
                <Text size="sm">Off.</Text>
                <Button size="xs" variant="default" onClick={() => setEnrolling(true)}>
                  Set up
                </Button>
              </Group>
            )}
          </Stack>
          <Divider />
          <ApiKeySection auth={{ user: userName, password }} />
          <Divider />
          <TokensSection userName={userName} />
        </Stack>
      </Paper>
    </>
  )
}
