import { DonutChart } from '@mantine/charts'
import { Badge, Code, Group, Stack, Text } from '@mantine/core'
import type { Dashboard, SeverityCounts } from '@trove/contracts/dashboard'
import { SEVERITY_COLOURS } from '../../../ui/SeverityBadge'
import { ChartCard, Empty } from './ChartCard'
import { AnchorLink, packageIdOf } from './links'

const ORDER: (keyof SeverityCounts)[] = ['critical', 'high', 'medium', 'low', 'unknown']
const label = (s: string) => s[0]?.toUpperCase() + s.slice(1)

/** Vulnerabilities by severity and the versions scanned most recently with critical ones. */
export function VulnerabilitiesCard({ data }: { data: Dashboard }) {
  const admin = data.scope === 'instance'
  const v = data.vulnerabilities
  const action = admin ? <AnchorLink to="/admin/security_violations">Violations</AnchorLink> : null
  if (!v) {
    return (
      <ChartCard title="Vulnerabilities" action={action}>
        <Empty>
          {admin ? (
            <>
              No node runs the scanner. It runs where <Code>TROVE_MODULES</Code> is unset or names <Code>scanner</Code>.
            </>
          ) : (
            'The security scanner is not running on this instance.'
          )}
        </Empty>
      </ChartCard>
    )
  }
  const total = ORDER.reduce((sum, s) => sum + v.counts[s], 0)
  const slices = ORDER.filter((s) => v.counts[s] > 0).map((s) => ({
    name: label(s),
    value: v.counts[s],
    color: `${SEVERITY_COLOURS[s]}.6`,
  }))
  return (
    <ChartCard title="Vulnerabilities" action={action}>
      <Group align="center" gap="lg" wrap="nowrap">
        {total === 0 ? (
          <Empty>No vulnerability found in the scanned versions</Empty>
        ) : (
          <DonutChart data={slices} size={150} thickness={22} withTooltip chartLabel={total.toLocaleString('en')} />
        )}
        <Stack gap={6} aria-label="Vulnerabilities by severity">
          {ORDER.map((s) => (
            <Group key={s} gap="xs" wrap="nowrap">
              <Badge color={SEVERITY_COLOURS[s]} variant={s === 'critical' || s === 'high' ? 'filled' : 'light'} miw={92}>
                {s}
              </Badge>
              <Text size="sm" fw={600} aria-label={`${s} vulnerabilities`}>
                {v.counts[s].toLocaleString('en')}
              </Text>
            </Group>
          ))}
        </Stack>
      </Group>
      <Text size="sm" fw={600} mt="md" mb={6}>
        Newest critical
      </Text>
      {v.newestCritical.length === 0 ? (
        <Text size="sm" c="dimmed">
          None
        </Text>
      ) : (
        <Stack gap={6}>
          {v.newestCritical.map((c) => (
            <Group key={`${c.repoKey}/${c.name}/${c.version}`} justify="space-between" wrap="nowrap" gap="xs">
              <AnchorLink
                to="/packages/{-$packageId}/{-$versionId}"
                params={{ packageId: packageIdOf(c.packageType, c.name), versionId: c.version }}
                size="sm"
                truncate
              >
                {c.name} {c.version}
              </AnchorLink>
              <Text size="xs" c="dimmed" truncate>
                {[c.advisories.join(', '), `${c.critical} critical`].filter(Boolean).join(' · ')}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </ChartCard>
  )
}
