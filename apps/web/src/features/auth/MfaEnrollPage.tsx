import { Alert, Anchor, Code, Image, Loader, Paper, Stack, Text, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { useConfirmMfaEnrollment, useMfaEnrollment } from './api/mfa'
import { OneTimeCodeForm } from './OneTimeCodeForm'

export interface MfaEnrollPageProps {
  onEnrolled: () => void
  onRestart: () => void
}

/**
 * The QR code, the secret and the code form: used at sign-in and from the profile (where the
 * password the profile was opened with goes along: the server asks for it again).
 */
export function MfaEnrollmentPanel({ onEnrolled, password }: { onEnrolled: () => void; password?: string }) {
  const enrollment = useMfaEnrollment()
  const confirm = useConfirmMfaEnrollment()
  return (
    <Stack gap="md">
      {enrollment.isPending && <Loader mx="auto" />}
      {enrollment.error && (
        <Alert color="red" role="alert" variant="light">
          {enrollment.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {enrollment.data && (
        <>
          <Image src={enrollment.data.qrCode} alt="QR code for your authenticator app" w={200} h={200} mx="auto" />
          <Text size="sm" ta="center">
            Or enter this key: <Code data-testid="mfa-secret">{enrollment.data.secret}</Code>
          </Text>
          <OneTimeCodeForm
            submitLabel="Confirm"
            pending={confirm.isPending}
            error={confirm.error}
            onSubmit={(code) => confirm.mutate({ otp: code, password }, { onSuccess: onEnrolled })}
          />
        </>
      )}
    </Stack>
  )
}

/** MFA enrolment at sign-in: scan the QR code (or type the secret) into any authenticator app, then confirm a code. */
export function MfaEnrollPage({ onEnrolled, onRestart }: MfaEnrollPageProps) {
  return (
    <Paper component="main" withBorder shadow="sm" p="xl" radius="md" w={420} maw="92vw">
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            Set up two-step verification
          </Title>
          <Text c="dimmed" size="sm">
            Scan the code with an authenticator app, then enter the code it shows.
          </Text>
        </div>
        <MfaEnrollmentPanel onEnrolled={onEnrolled} />
        <Anchor component="button" type="button" size="sm" onClick={onRestart}>
          Back to sign in
        </Anchor>
      </Stack>
    </Paper>
  )
}
