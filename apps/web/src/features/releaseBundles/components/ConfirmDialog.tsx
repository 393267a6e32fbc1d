import { Button, Group, Modal, Stack, Text } from '@mantine/core'

export interface ConfirmDialogProps {
  /** Null keeps the dialog closed */
  message: string | null
  title: string
  confirmLabel: string
  pending: boolean
  onConfirm: () => void
  onClose: () => void
}

/** Asks before something is deleted or removed (the outcome is notified by the caller). */
export function ConfirmDialog({ message, title, confirmLabel, pending, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Modal opened={message !== null} onClose={onClose} title={title} zIndex={400} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Text>{message}</Text>
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
