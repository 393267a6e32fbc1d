import { Modal, Text } from '@mantine/core'

/** The login notice's dialog: closing it is the caller's business (it stores the dismissal). */
export function LoginNoticeDialog({ title, content, onClose }: { title: string; content: string; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={title || 'Notice'} centered>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {content}
      </Text>
    </Modal>
  )
}
