import { Anchor, Paper, Stack, Text, Title } from '@mantine/core'
import { ApiError } from '../../lib/api'
import { useVerifyOtp } from './api/mfa'
import { OneTimeCodeForm } from './OneTimeCodeForm'

export interface OtpLoginPageProps {
  onSignedIn: () => void
  /** A forbidden answer (the pending sign-in ended) returns to the login screen (shell §8). */
  onRestart: () => void
}

/** The second step of a sign-in with MFA: the code from the authenticator app. */
export function OtpLoginPage({ onSignedIn, onRestart }: OtpLoginPageProps) {
  const verify = useVerifyOtp()
  const submit = (code: string) =>
    verify.mutate(
      { otp: code },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          if (error instanceof ApiError && error.status === 403) onRestart()
        },
      },
    )
  return (
    <Paper component="main" withBorder shadow="sm" p="xl" radius="md" w={380} maw="92vw">
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            Two-step verification
          </Title>
          <Text c="dimmed" size="sm">
            Enter the code your authenticator app shows for Trove.
          </Text>
        </div>
        <OneTimeCodeForm submitLabel="Verify" pending={verify.isPending} error={verify.error} onSubmit={submit} />
        <Anchor component="button" type="button" size="sm" onClick={onRestart}>
          Back to sign in
        </Anchor>
      </Stack>
    </Paper>
  )
}
