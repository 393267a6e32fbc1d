import { Badge, Group, Progress, Stack, Text } from '@mantine/core'
import type { Dashboard } from '@trove/contracts/dashboard'
import { ChartCard, Empty } from './ChartCard'
import { AnchorLink, packageIdOf } from './links'

/** The most downloaded packages, each a link to its page; the bar is its share of the first. */
export function TopPackagesCard({ data }: { data: Dashboard }) {
  const top = data.topPackages
  const most = top[0]?.downloads ?? 1
  return (
    <ChartCard
      title="Most downloaded packages"
      action={
        <AnchorLink to="/packages/{-$packageId}/{-$versionId}" params={{}}>
          All packages
        </AnchorLink>
      }
    >
      {top.length === 0 ? (
        <Empty>No package downloaded yet</Empty>
      ) : (
        <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Most downloaded packages">
          {top.map((p) => (
            <li key={packageIdOf(p.packageType, p.name)}>
              <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
                <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                  <Badge size="xs" variant="light" color="gray">
                    {p.packageType}
                  </Badge>
                  <AnchorLink
                    to="/packages/{-$packageId}/{-$versionId}"
                    params={{ packageId: packageIdOf(p.packageType, p.name) }}
                    size="sm"
                    truncate
                  >
                    {p.name}
                  </AnchorLink>
                  {p.latestVersion && (
                    <Text size="xs" c="dimmed">
                      {p.latestVersion}
                    </Text>
                  )}
                </Group>
                <Text size="sm" fw={600} aria-label={`${p.name} downloads`}>
                  {p.downloads.toLocaleString('en')}
                </Text>
              </Group>
              <Progress value={(p.downloads / most) * 100} size="sm" color="teal" aria-hidden />
            </li>
          ))}
        </Stack>
      )}
    </ChartCard>
  )
}
