import { Alert, Badge, Card, Code, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core'
import { format, Messages } from '@trove/contracts/messages'
import type { NodeStatus, NodeStatusList } from '@trove/contracts/operations'
import { SERVICE_LABELS, type ServiceTypeName } from '@trove/contracts/services'
import { TopologyMessages as M } from '@trove/contracts/topologyMessages'
import { PageHeader } from '../../ui/PageHeader'
import { useTopologyNodes } from './api/topology'
import { type ServiceState, serviceStates } from './serviceStates'

function HealthBadge({ status }: { status: NodeStatus }) {
  // Filled shades with AA contrast in both themes (as on Service Status and Peers).
  return (
    <Badge color={status === 'Online' ? 'trove' : 'red.9'} style={{ minWidth: 'max-content' }}>
      {status}
    </Badge>
  )
}

function NodesTable({ nodes }: { nodes: NodeStatusList }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped withTableBorder aria-label={M.nodesTitle}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{M.nodeColumn}</Table.Th>
            <Table.Th>{M.addressColumn}</Table.Th>
            <Table.Th>{M.modulesColumn}</Table.Th>
            <Table.Th>{M.healthColumn}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {nodes.map((n) => (
            <Table.Tr key={n.node_id} aria-label={`Node ${n.node_id}`}>
              <Table.Td>
                <Text fw={600} size="sm">
                  {n.node_id}
                </Text>
              </Table.Td>
              <Table.Td>
                {n.url ? (
                  <Text size="sm" ff="monospace">
                    {n.url}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    {M.noAddress}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {n.services.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {M.runsNothing}
                  </Text>
                ) : (
                  <Group gap={6}>
                    {n.services.map((s) => (
                      <Badge key={s} variant="default" tt="none" title={SERVICE_LABELS[s as ServiceTypeName]}>
                        {s}
                      </Badge>
                    ))}
                  </Group>
                )}
              </Table.Td>
              <Table.Td>
                <HealthBadge status={n.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

function StateBadge({ state }: { state: ServiceState }) {
  if (state.kind === 'running')
    return (
      <Badge color="trove" style={{ flexShrink: 0 }}>
        {M.running}
      </Badge>
    )
  return (
    <Badge color="gray" variant="default" style={{ flexShrink: 0 }}>
      {state.kind === 'off' ? M.notRunning : M.notInTrove}
    </Badge>
  )
}

function ServiceDetail({ state }: { state: ServiceState }) {
  if (state.kind === 'running') return <Text size="sm">{format(M.runsOn, { nodes: state.nodes.join(', ') })}</Text>
  const offline = state.offline.length > 0 && (
    <Text size="sm" c="dimmed">
      {format(M.offlineNodes, { nodes: state.offline.join(', ') })}
    </Text>
  )
  if (state.kind === 'notInTrove')
    return (
      <>
        <Text size="sm" c="dimmed">
          {M.notPartOfTrove}
        </Text>
        {offline}
      </>
    )
  return (
    <>
      {offline}
      <Text size="sm">{state.node ? format(M.turnOnAt, { node: state.node }) : M.turnOnNewNode}</Text>
      <Code block>{state.setting}</Code>
    </>
  )
}

/**
 * The admin's landing tab: the nodes with what each runs, and each of the console's services —
 * running where, the setting that turns on one of Trove's modules that is off, or that it is not
 * part of Trove.
 */
export function TopologyPage() {
  const nodes = useTopologyNodes()
  return (
    <>
      <PageHeader title={M.title} breadcrumbs={['Monitoring', M.title]} />
      {nodes.isError && (
        <Alert color="red" role="alert" mb="md">
          {nodes.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      <Stack gap="lg">
        <Paper withBorder p="md" component="section" aria-labelledby="topology-nodes">
          <Title order={2} size="h4" id="topology-nodes">
            {M.nodesTitle}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {M.nodesIntro}
          </Text>
          {nodes.isPending ? (
            <Skeleton h={72} radius="md" />
          ) : nodes.data?.length ? (
            <NodesTable nodes={nodes.data} />
          ) : (
            nodes.isSuccess && <Text c="dimmed">{M.noNodes}</Text>
          )}
        </Paper>
        <section aria-labelledby="topology-services">
          <Title order={2} size="h4" mb="sm" id="topology-services">
            {M.servicesTitle}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {nodes.isPending
              ? ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => <Skeleton key={k} h={120} radius="md" />)
              : nodes.data &&
                serviceStates(nodes.data).map(({ name, state }) => (
                  <Card key={name} withBorder radius="md" padding="md" component="section" aria-label={SERVICE_LABELS[name]}>
                    <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                      <div>
                        <Text fw={600}>{SERVICE_LABELS[name]}</Text>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {name}
                        </Text>
                      </div>
                      <StateBadge state={state} />
                    </Group>
                    <Stack gap={6} mt="sm">
                      <ServiceDetail state={state} />
                    </Stack>
                  </Card>
                ))}
          </SimpleGrid>
        </section>
      </Stack>
    </>
  )
}
