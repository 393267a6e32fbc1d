import { Button, Group, Modal, Stack, Text } from '@mantine/core'

export interface ConfirmDialogProps {
  /** Null keeps the dialog closed */
  message: string | null
  title: string
  confirmLabel: string
  /** A change that removes nothing is confirmed in the primary colour rather than red */
  destructive?: boolean
  pending: boolean
  onConfirm: () => void
  onClose: () => void
}

/** Asks before something is deleted, removed or replaced (the outcome is notified by the caller). */
export function ConfirmDialog({
  message,
  title,
  confirmLabel,
  destructive = true,
  pending,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal opened={message !== null} onClose={onClose} title={title} zIndex={400} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Text>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={destructive ? 'red' : undefined} loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
