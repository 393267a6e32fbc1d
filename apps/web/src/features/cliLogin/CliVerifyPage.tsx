import { Alert, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { CLI_CODE_LENGTH } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { useApproveCliLogin } from './api/approve'

export interface CliVerifyPageProps {
  session: string
  clientName: string
  userName: string
  onApproved: () => void
  onFinished: () => void
}

/** The verify form: the user compares the code with the terminal's and approves the client. */
export function CliVerifyPage({ session, clientName, userName, onApproved, onFinished }: CliVerifyPageProps) {
  const approve = useApproveCliLogin()
  const code = session.slice(-CLI_CODE_LENGTH)
  return (
    <Paper component="main" withBorder shadow="sm" p="xl" radius="md" w={420} maw="92vw">
      <Stack gap="md">
        <Title order={1} size="h2">
          Command-line sign-in
        </Title>
        {approve.isSuccess ? (
          <Alert color="green" variant="light" role="status">
            {clientName} is signed in as {userName}. You can close this window and return to the terminal.
          </Alert>
        ) : (
          <>
            <Text>
              <strong>{clientName}</strong> asks to sign in as <strong>{userName}</strong>. Approve only if your terminal shows
              this code:
            </Text>
            <Code block ta="center" fz="xl" data-testid="cli-code">
              {code}
            </Code>
            {approve.error && (
              <Alert color="red" role="alert" variant="light">
                {approve.error.message || Messages.somethingWentWrong}
              </Alert>
            )}
            <Group grow>
              <Button variant="default" onClick={onFinished}>
                Deny
              </Button>
              <Button loading={approve.isPending} onClick={() => approve.mutate(session, { onSuccess: onApproved })}>
                Approve
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  )
}
