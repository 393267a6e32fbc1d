import { Button, Progress, Stack, Table, Text } from '@mantine/core'
import type { DistributionView } from '@trove/contracts/distribution'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { formatSize } from '../../../lib/format'
import { when } from '../when'
import { DistributionBadge, FAILURE_TEXT } from './Badges'

const percent = (done: number, total: number) => (total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0)

/** Where a bundle was sent: each target's state and progress (files, bytes), attempts and last error. */
export function DistributionsTable({
  distributions,
  removing,
  onRemove,
}: {
  distributions: DistributionView[]
  /** The target whose removal is being asked for, if any */
  removing: string | null
  onRemove?: (target: string) => void
}) {
  if (distributions.length === 0) return <Text c="dimmed">{ReleaseBundleMessages.bundleNotDistributed}</Text>
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table withTableBorder aria-label="Distributions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Target</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th miw={180}>Progress</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {distributions.map((d) => {
            const files = percent(d.filesDone, d.filesTotal)
            const sending = d.state !== 'deleting' && d.state !== 'deleted'
            return (
              <Table.Tr key={d.target}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {d.target}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <DistributionBadge state={d.state} />
                </Table.Td>
                <Table.Td>
                  {sending ? (
                    <Stack gap={2}>
                      <Progress
                        value={percent(d.bytesDone, d.bytesTotal)}
                        animated={d.state === 'running'}
                        color={d.state === 'failed' ? 'red' : d.state === 'completed' ? 'green' : 'blue'}
                        aria-label={`Progress to ${d.target}`}
                      />
                      <Text size="xs" c="dimmed">
                        {d.filesDone}/{d.filesTotal} files ({files}%), {formatSize(d.bytesDone)} of {formatSize(d.bytesTotal)}
                      </Text>
                      {d.finishedAt && (
                        <Text size="xs" c="dimmed">
                          Finished {when(d.finishedAt)}
                        </Text>
                      )}
                    </Stack>
                  ) : (
                    <Text size="xs" c="dimmed">
                      {d.state === 'deleted' ? `Removed ${when(d.finishedAt)}` : 'Being removed'}
                    </Text>
                  )}
                  {d.lastError && (
                    <Text size="xs" mt={4} style={{ ...FAILURE_TEXT, overflowWrap: 'anywhere' }}>
                      {d.lastError}
                      {d.nextAttemptAt && d.state === 'failed' ? ` (next attempt ${when(d.nextAttemptAt)})` : ''}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{d.attempts}</Table.Td>
                <Table.Td>
                  {onRemove && d.state !== 'deleting' && d.state !== 'deleted' && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Remove from ${d.target}`}
                      loading={removing === d.target}
                      onClick={() => onRemove(d.target)}
                    >
                      Remove
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
