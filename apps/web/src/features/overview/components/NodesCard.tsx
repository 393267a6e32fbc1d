import { Badge, Group, Stack, Text } from '@mantine/core'
import type { Dashboard } from '@trove/contracts/dashboard'
import { ChartCard } from './ChartCard'
import { AnchorLink } from './links'

export const ago = (at: number, now: number) => {
  const s = Math.max(0, Math.round((now - at) / 1000))
  if (s < 90) return `${s} s ago`
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`
  return `${Math.round(s / 86_400)} days ago`
}

/** Each node, Online or Offline by its heartbeat, with the services it runs (administrators). */
export function NodesCard({ data }: { data: Dashboard }) {
  const nodes = data.nodes ?? []
  return (
    <ChartCard title="Nodes" action={<AnchorLink to="/admin/monitoring/service-status">Service status</AnchorLink>}>
      <Stack gap="sm" aria-label="Nodes">
        {nodes.length === 0 && (
          <Text size="sm" c="dimmed">
            No node has registered yet
          </Text>
        )}
        {nodes.map((n) => (
          <Group key={n.nodeId} justify="space-between" wrap="nowrap">
            <div style={{ minWidth: 0 }}>
              <Group gap={6} wrap="nowrap">
                <Badge color={n.status === 'Online' ? 'teal' : 'red'} variant="dot" style={{ flexShrink: 0 }}>
                  {n.status}
                </Badge>
                <Text size="sm" fw={600} truncate>
                  {n.nodeId}
                </Text>
              </Group>
              <Text size="xs" c="dimmed" mt={2}>
                {n.services.join(' · ')}
              </Text>
            </div>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              heartbeat {ago(n.lastHeartbeat, data.generatedAt)}
            </Text>
          </Group>
        ))}
      </Stack>
    </ChartCard>
  )
}
