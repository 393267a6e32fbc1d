import { Badge, Card, Group, SimpleGrid, Skeleton, Text } from '@mantine/core'
import { SERVICE_LABELS, type ServiceTypeName } from '@trove/contracts/services'
import { PageHeader } from '../../ui/PageHeader'
import { useMicroservices } from './api/startup'

const label = (name: string) => SERVICE_LABELS[name as ServiceTypeName] ?? name

/** The admin's landing tab: Trove's services and whether an Online node of the cluster runs each. */
export function TopologyPage() {
  const services = useMicroservices()
  return (
    <>
      <PageHeader title="Topology" breadcrumbs={['Monitoring', 'Topology']} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        {services.isPending
          ? ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((k) => <Skeleton key={k} h={88} radius="md" />)
          : services.data?.services.map((s) => (
              <Card key={s.name} withBorder radius="md" padding="md" component="section" aria-label={label(s.name)}>
                <Text fw={600}>{label(s.name)}</Text>
                <Group justify="space-between" mt={6} wrap="nowrap" gap="xs">
                  <Text size="xs" c="dimmed" truncate>
                    {s.name}
                  </Text>
                  <Badge
                    color={s.enabled ? 'trove' : 'gray'}
                    variant={s.enabled ? 'filled' : 'default'}
                    style={{ flexShrink: 0 }}
                  >
                    {s.enabled ? 'Running' : 'Not running'}
                  </Badge>
                </Group>
              </Card>
            ))}
      </SimpleGrid>
    </>
  )
}
