import { Badge, Code, Group, Stack, Text, Title } from '@mantine/core'
import type { PackageNode } from '@trove/contracts/packages'
import type { ReactNode } from 'react'
import { VulnerabilityBadges } from '../../../ui/VulnerabilityBadges'
import { installCommand, setMeUpType } from '../packageRules'

/** A package's header: name, type, description, figures, licences, tags and how to install it. */
export function PackageSummary({
  pkg,
  version,
  repoKey,
  children,
}: {
  pkg: PackageNode
  version?: string
  /** The repository the version is installed from. */
  repoKey?: string
  children?: ReactNode
}) {
  const install = installCommand(pkg, version, repoKey)
  return (
    <Stack gap="xs" mb="md">
      <Group gap="sm">
        <Badge variant="light">{pkg.packageType}</Badge>
        <Title order={1} size="h2">
          {pkg.name}
          {version ? ` ${version}` : ''}
        </Title>
        <VulnerabilityBadges value={pkg.vulnerabilities} />
      </Group>
      {pkg.description && <Text c="dimmed">{pkg.description}</Text>}
      <Group gap="lg">
        <Fact label="Latest version" value={pkg.latestVersion ?? '—'} />
        <Fact label="Versions" value={String(pkg.versionsCount ?? 0)} />
        <Fact label="Downloads" value={String(pkg.stats?.downloads ?? 0)} />
        {pkg.modified && <Fact label="Updated" value={new Date(pkg.modified).toLocaleString()} />}
        <Fact label="Set me up" value={setMeUpType(pkg.id ?? '') ?? '—'} />
        {pkg.licenses && pkg.licenses.length > 0 && <Fact label="Licenses" value={pkg.licenses.map((l) => l.name).join(', ')} />}
        {pkg.operationalRisk && <Fact label="Operational risk" value={pkg.operationalRisk.riskLevel} />}
      </Group>
      {pkg.tags && pkg.tags.length > 0 && (
        <Group gap={4} aria-label="Tags">
          {pkg.tags.map((t) => (
            <Badge key={t} size="sm" variant="outline">
              {t}
            </Badge>
          ))}
        </Group>
      )}
      {install && (
        <Group gap="xs">
          <Text size="sm">Install:</Text>
          <Code>{install}</Code>
        </Group>
      )}
      {children}
    </Stack>
  )
}

export function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </Stack>
  )
}
