import { Alert, Button, Group } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import type { ReactNode } from 'react'

export interface SaveFooterProps {
  /** The save's failure, shown above the buttons. */
  error: Error | null
  pending: boolean
  /** The submit button's label. */
  label?: string
  /** Buttons before the submit one (e.g. Cancel). */
  children?: ReactNode
}

/** The end of a settings form: the save's error, if any, then the buttons, the submit one last. */
export function SaveFooter({ error, pending, label = 'Save', children }: SaveFooterProps) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      <Group justify="flex-end">
        {children}
        <Button type="submit" loading={pending}>
          {label}
        </Button>
      </Group>
    </>
  )
}
