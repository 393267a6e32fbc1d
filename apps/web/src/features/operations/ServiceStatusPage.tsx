import { Alert, Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { SERVICE_LABELS, type ServiceNode, type ServiceType } from '@trove/contracts/operations'
import { useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { useDeleteNode, useHealth, useServiceStatus } from './api/serviceStatus'
import { byServiceOrder, missionControlInstances, serviceHealth } from './rules/serviceStatus'
import { formatUptime } from './rules/uptime'

const label = (service: string) => SERVICE_LABELS[service as ServiceType] ?? service

function HealthBadge({ healthy, total }: { healthy: number; total: number }) {
  // Filled shades with AA contrast: white on green and red, dark text on yellow.
  const color = healthy === total ? 'trove' : healthy > 0 ? 'yellow' : 'red.9'
  return (
    <Badge color={color} autoContrast>
      {healthy} of {total} healthy
    </Badge>
  )
}

/** Admin → Monitoring → Service Status: every service with its nodes and micro-services. */
export function ServiceStatusPage() {
  const status = useServiceStatus()
  const remove = useDeleteNode()
  const health = useHealth()
  const [confirming, setConfirming] = useState<ServiceNode | null>(null)
  const services = byServiceOrder(Object.entries(status.data ?? {}))
  const mcInstances = status.data ? missionControlInstances(status.data) : []

  return (
    <>
      <PageHeader title="Service Status" breadcrumbs={['Administration', 'Monitoring', 'Service Status']} />
      {status.isError && (
        <Alert color="red" role="alert" mb="md">
          {status.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {remove.isError && (
        <Alert color="red" role="alert" mb="md">
          {remove.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      <Stack gap="lg">
        {services.map(([service, { nodes }]) => (
          <Paper key={service} withBorder p="md" component="section" aria-label={label(service)}>
            <Group justify="space-between" mb="sm">
              <Title order={3} size="h4">
                {label(service)}
              </Title>
              <Group gap="xs">
                {service === 'mission-control' && mcInstances.length > 1 && (
                  <Badge variant="light">{mcInstances.length} instances</Badge>
                )}
                {health.data && <HealthBadge {...serviceHealth(health.data, service)} />}
              </Group>
            </Group>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Node</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Micro-service</Table.Th>
                  <Table.Th>Last heartbeat</Table.Th>
                  <Table.Th>Uptime</Table.Th>
                  <Table.Th>Version</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {nodes.flatMap((node) =>
                  Object.entries(node.micro_services).map(([micro, m]) => (
                    <Table.Tr key={`${node.node_id}/${micro}`} aria-label={`Node ${node.node_id}`}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {node.node_id}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {node.url || '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge
                          color="trove"
                          variant={node.status === 'Online' ? 'filled' : 'default'}
                          style={{ minWidth: 'max-content' }}
                        >
                          {node.status}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{label(micro)}</Table.Td>
                      <Table.Td>{new Date(m.last_heartbeat).toLocaleString()}</Table.Td>
                      <Table.Td>{formatUptime(m.uptime)}</Table.Td>
                      <Table.Td>{node.version}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          aria-label={`Delete node ${node.node_id}`}
                          onClick={() => setConfirming(node)}
                        >
                          Delete
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  )),
                )}
              </Table.Tbody>
            </Table>
          </Paper>
        ))}
        {status.isSuccess && services.length === 0 && <Text c="dimmed">No node has registered yet.</Text>}
      </Stack>
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title="Delete node">
        <Text size="sm" mb="md">
          Remove node {confirming?.node_id} from the topology? A node that still runs registers again on its next heartbeat.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(null)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => {
              if (!confirming) return
              remove.mutate(
                { serviceId: confirming.service_id, nodeId: confirming.node_id },
                { onSettled: () => setConfirming(null) },
              )
            }}
          >
            Delete
          </Button>
        </Group>
      </Modal>
    </>
  )
}
