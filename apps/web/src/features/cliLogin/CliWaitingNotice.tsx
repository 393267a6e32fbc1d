import { Alert } from '@mantine/core'
import { CLI_CODE_LENGTH } from '@trove/contracts/limits'
import { format, ScreenMessages } from '@trove/contracts/messages'

/** On the command-line sign-in screen: which client waits, and the code the terminal shows. */
export function CliWaitingNotice({ clientName, session }: { clientName: string; session: string }) {
  return (
    <Alert color="blue" variant="light" role="status" title="Command-line sign-in">
      {format(ScreenMessages.cliRegistrationWaiting, { client: clientName, code: session.slice(-CLI_CODE_LENGTH) })}
    </Alert>
  )
}
