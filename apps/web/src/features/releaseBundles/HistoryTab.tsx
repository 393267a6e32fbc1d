import { Alert, Group, Loader, Stack, Table, Text } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { useState } from 'react'
import { isModuleOff } from './api/distributionRequest'
import { useHistory } from './api/history'
import { FAILURE_TEXT, ResultBadge } from './components/Badges'
import { ModuleOff } from './components/ModuleOff'
import { Pager } from './components/Paged'
import { when } from './when'

/** Rows of the history a page shows. */
export const HISTORY_PAGE = 50

const ACTION_LABELS = {
  distribute: 'Distributed',
  receive: 'Received',
  delete: 'Removed',
  recall: 'Recalled',
  retention: 'Removed by retention',
} as const

/** Every distribution, reception, removal, recall and retention removal on this node, newest first, paged. */
export function HistoryTab() {
  const [page, setPage] = useState(1)
  const history = useHistory(HISTORY_PAGE, (page - 1) * HISTORY_PAGE)
  if (isModuleOff(history.error)) return <ModuleOff />
  if (history.isPending) return <Loader size="sm" aria-label="Loading the history" />
  if (history.error)
    return (
      <Alert color="red" variant="light" role="alert">
        {history.error.message || Messages.somethingWentWrong}
      </Alert>
    )
  const { entries, total } = history.data
  const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE))
  if (total === 0)
    return (
      <Text c="dimmed" py="md">
        {ReleaseBundleMessages.noBundleHistory}
      </Text>
    )
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={720}>
        <Table striped withTableBorder aria-label="Target history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Bundle</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Other node</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Detail</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td miw={110}>{when(e.at)}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.bundle}</Table.Td>
                <Table.Td>{e.version}</Table.Td>
                <Table.Td>{ACTION_LABELS[e.action]}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{e.peer ?? '—'}</Table.Td>
                <Table.Td>{e.actor ?? '—'}</Table.Td>
                <Table.Td>
                  <ResultBadge result={e.result} />
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text size="sm" style={e.result === 'failure' ? FAILURE_TEXT : undefined}>
                    {e.detail || '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {total} {total === 1 ? 'entry' : 'entries'}
        </Text>
        <Pager page={page} pages={pages} onChange={setPage} />
      </Group>
    </Stack>
  )
}
