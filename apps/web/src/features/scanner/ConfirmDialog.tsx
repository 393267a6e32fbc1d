import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'

export interface ConfirmDialogProps {
  /** Null keeps the dialog closed */
  message: string | null
  title: string
  confirmLabel: string
  pending: boolean
  error: Error | null
  onConfirm: () => void
  onClose: () => void
}

/** Asks before something is deleted; a refusal (a policy still applied, say) shows inside it. */
export function ConfirmDialog({ message, title, confirmLabel, pending, error, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Modal opened={message !== null} onClose={onClose} title={title}>
      <Stack>
        <Text>{message}</Text>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
