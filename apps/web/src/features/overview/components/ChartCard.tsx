import { Card, Group, Text } from '@mantine/core'
import type { ReactNode } from 'react'

/** A titled card of the dashboard, with a link to the screen behind it on the right. */
export function ChartCard({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" h="100%" component="section" aria-label={title}>
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Text fw={600}>{title}</Text>
        {action && <Text size="sm">{action}</Text>}
      </Group>
      {children}
    </Card>
  )
}

/** What a card shows when there is nothing to draw yet. */
export function Empty({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" ta="center" py="xl">
      {children}
    </Text>
  )
}
