import { Badge, Card, Group, SimpleGrid, Skeleton, Text } from '@mantine/core'
import { PageHeader } from '../../ui/PageHeader'
import { useMicroservices } from './api/startup'

const SERVICE_LABEL: Record<string, string> = {
  artifactory: 'Artifact repository',
  access: 'Access',
  xray: 'Security scanner',
  distribution: 'Distribution',
  mc: 'Mission control',
  insight: 'Insight',
  pipelines: 'Pipelines',
  tracker: 'Tracker',
}

/** The admin's landing tab: the services of this instance and whether each runs. */
export function TopologyPage() {
  const services = useMicroservices()
  return (
    <>
      <PageHeader title="Topology" breadcrumbs={['Monitoring', 'Topology']} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        {services.isPending
          ? ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((k) => <Skeleton key={k} h={88} radius="md" />)
          : services.data?.services.map((s) => (
              <Card
                key={s.name}
                withBorder
                radius="md"
                padding="md"
                component="section"
                aria-label={SERVICE_LABEL[s.name] ?? s.name}
              >
                <Text fw={600}>{SERVICE_LABEL[s.name] ?? s.name}</Text>
                <Group justify="space-between" mt={6}>
                  <Text size="xs" c="dimmed">
                    {s.name}
                  </Text>
                  <Badge color={s.enabled ? 'trove' : 'gray'} variant={s.enabled ? 'filled' : 'default'}>
                    {s.enabled ? 'Running' : 'Not installed'}
                  </Badge>
                </Group>
              </Card>
            ))}
      </SimpleGrid>
    </>
  )
}
