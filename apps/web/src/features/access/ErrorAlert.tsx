import { Alert } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'

/** The server's message for a failed call, or the screen's fallback text. */
export function ErrorAlert({
  error,
  fallback = Messages.somethingWentWrong,
}: {
  error: Error | null | undefined
  fallback?: string
}) {
  if (!error) return null
  return (
    <Alert color="red" variant="light" role="alert" mb="sm">
      {error.message || fallback}
    </Alert>
  )
}
