import { Alert, Badge, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import type { NodeStatus } from '@trove/contracts/operations'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { PageHeader } from '../../ui/PageHeader'
import { usePeers } from './api/peers'
import { formatAgo, type PeerCell, peerGrid } from './rules/peers'

function StatusBadge({ status }: { status: NodeStatus }) {
  return <Badge color={status === 'Online' ? 'trove' : 'red.9'}>{status}</Badge>
}

function Cell({ cell }: { cell: PeerCell }) {
  if (cell.kind === 'self')
    return (
      <Text c="dimmed" size="sm">
        itself
      </Text>
    )
  if (cell.kind === 'never')
    return (
      <Text c="dimmed" size="sm">
        never seen
      </Text>
    )
  return (
    <Stack gap={2}>
      <StatusBadge status={cell.status} />
      <Text size="xs">looked {cell.observedAgo}</Text>
      <Text size="xs" c="dimmed">
        its heartbeat was {cell.heartbeatAgo} old
      </Text>
    </Stack>
  )
}

/** Admin › Monitoring › Peers: the cluster's nodes, and what each last saw of the others. */
export function PeersPage() {
  const peers = usePeers()
  const data = peers.data
  const grid = data ? peerGrid(data) : []
  return (
    <>
      <PageHeader title="Peers" breadcrumbs={['Administration', 'Monitoring', 'Peers']} />
      {peers.isError && (
        <Alert color="red" role="alert" mb="md">
          {peers.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {peers.isPending && <Skeleton h={160} radius="md" />}
      {data && (
        <Stack gap="lg">
          <Paper withBorder p="md" component="section" aria-labelledby="peers-nodes">
            <Title order={2} size="h4" mb="sm" id="peers-nodes">
              Nodes
            </Title>
            <Table.ScrollContainer minWidth={720}>
              <Table striped withTableBorder aria-label="Nodes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Node</Table.Th>
                    <Table.Th>Address</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th>Last heartbeat</Table.Th>
                    <Table.Th>Version</Table.Th>
                    <Table.Th>Services</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.nodes.map((n) => (
                    <Table.Tr key={n.nodeId}>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <Text fw={600} size="sm">
                            {n.nodeId}
                          </Text>
                          {n.self && (
                            <Badge variant="light" size="sm">
                              this node
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" ff="monospace">
                          {n.url || '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={n.status} />
                      </Table.Td>
                      <Table.Td title={new Date(n.lastHeartbeat).toISOString()}>{formatAgo(n.lastHeartbeat, data.now)}</Table.Td>
                      <Table.Td>{n.version}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{n.services.join(', ')}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
          <Paper withBorder p="md" component="section" aria-labelledby="peers-seen">
            <Title order={2} size="h4" id="peers-seen">
              As they see each other
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              Each row is what that node read of the others on its last heartbeat.
            </Text>
            {data.nodes.length < 2 ? (
              <Text c="dimmed">
                {data.nodes[0]?.nodeId ?? 'This node'}: {ScreenMessages.noPeersSeen.toLowerCase()}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={160 * (data.nodes.length + 1)}>
                <Table withTableBorder withColumnBorders aria-label="Sightings">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Seen by ↓ / of →</Table.Th>
                      {data.nodes.map((n) => (
                        <Table.Th key={n.nodeId}>{n.nodeId}</Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {grid.map((row) => (
                      <Table.Tr key={row.observer}>
                        <Table.Th scope="row">{row.observer}</Table.Th>
                        {row.cells.map(({ peer, cell }) => (
                          <Table.Td key={peer}>
                            <Cell cell={cell} />
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Paper>
        </Stack>
      )}
    </>
  )
}
