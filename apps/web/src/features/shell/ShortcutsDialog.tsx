import { Group, Kbd, Modal, Table } from '@mantine/core'
import { SHORTCUTS } from './shortcuts'

/** A dialog that lists every keyboard shortcut (§6 help menu). */
export function ShortcutsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard Shortcuts" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <Table>
        <Table.Tbody>
          {SHORTCUTS.map((s) => (
            <Table.Tr key={s.hotkey}>
              <Table.Td>{s.label}</Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end">
                  {s.keys.map((k) => (
                    <Kbd key={k}>{k}</Kbd>
                  ))}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  )
}
