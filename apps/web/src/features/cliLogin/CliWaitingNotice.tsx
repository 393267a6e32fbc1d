import { Alert } from '@mantine/core'
import { CLI_CODE_LENGTH } from '@trove/contracts/limits'
import { format } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'

/** On the command-line sign-in screen: which client waits, and the code the terminal shows. */
export function CliWaitingNotice({ clientName, session }: { clientName: string; session: string }) {
  return (
    <Alert color="blue" variant="light" role="status" title="Command-line sign-in">
      {format(ScreenMessages.cliRegistrationWaiting, { client: clientName, code: session.slice(-CLI_CODE_LENGTH) })}
    </Alert>
  )
}
