import { Alert, Badge, Button, Group, NativeSelect, Select, Skeleton, Table, Tabs, Text, TextInput } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { SEVERITIES, type Severity, type Violation, type ViolationType } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { SeverityBadge } from '../../ui/SeverityBadge'
import { useViolations } from './api/violations'
import { IgnoreDialog } from './IgnoreDialog'
import { IgnoreRulesTable } from './IgnoreRulesTable'
import { matchesText, noFilters, serverFilter, type ViolationFilters } from './violationFilter'

export interface ViolationsPageProps {
  /** The repository keys to filter by */
  repositories: string[]
}

const keyOf = (v: Violation) => [v.watch, v.policy, v.repo, v.packageId, v.version, v.issue, v.component].join('\u0000')

function Filters({
  filters,
  repositories,
  onChange,
}: {
  filters: ViolationFilters
  repositories: string[]
  onChange: (f: ViolationFilters) => void
}) {
  return (
    <Group role="group" aria-label="Filters" align="flex-end" mb="sm" gap="sm">
      <NativeSelect
        label="Severity"
        value={filters.severity}
        onChange={(e) => onChange({ ...filters, severity: e.currentTarget.value as Severity | '' })}
        data={[{ value: '', label: 'Any' }, ...SEVERITIES.map((s) => ({ value: s, label: s }))]}
      />
      <NativeSelect
        label="Type"
        value={filters.type}
        onChange={(e) => onChange({ ...filters, type: e.currentTarget.value as ViolationType | '' })}
        data={[
          { value: '', label: 'Any' },
          { value: 'security', label: 'Vulnerability' },
          { value: 'license', label: 'Licence' },
        ]}
      />
      <Select
        label="Repository"
        placeholder="Any"
        data={repositories}
        value={filters.repo || null}
        onChange={(v) => onChange({ ...filters, repo: v ?? '' })}
        searchable
        clearable
        nothingFoundMessage="No repository matches"
      />
      <TextInput
        label="Package"
        placeholder="Package, component or advisory"
        value={filters.text}
        onChange={(e) => onChange({ ...filters, text: e.currentTarget.value })}
        style={{ flex: 1, minWidth: 200 }}
      />
    </Group>
  )
}

function ViolationsTable({ rows, onIgnore }: { rows: Violation[]; onIgnore: (v: Violation) => void }) {
  return (
    <Table striped withTableBorder aria-label={ScreenMessages.scannerViolationsTitle}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Severity</Table.Th>
          <Table.Th>Issue</Table.Th>
          <Table.Th>Package</Table.Th>
          <Table.Th>Repository</Table.Th>
          <Table.Th>Watch / policy</Table.Th>
          <Table.Th>Effect</Table.Th>
          <Table.Th w={90} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((v) => (
          <Table.Tr key={keyOf(v)}>
            <Table.Td>
              <SeverityBadge severity={v.severity} />
            </Table.Td>
            <Table.Td>
              <Text size="sm" fw={600}>
                {v.issue}
              </Text>
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Text size="sm">
                {v.packageId}@{v.version}
              </Text>
              {(v.component !== v.packageId.replace(/^[^:]+:\/\//, '') || v.componentVersion !== v.version) && (
                <Text size="xs" c="dimmed">
                  in {v.component}@{v.componentVersion}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{v.repo}</Table.Td>
            <Table.Td>
              <Text size="sm">{v.watch}</Text>
              <Text size="xs" c="dimmed">
                {v.policy}
              </Text>
            </Table.Td>
            <Table.Td>
              <Group gap={4}>
                {v.blocksDownload && (
                  <Badge color="red" variant="light">
                    Blocks download
                  </Badge>
                )}
                {v.failsBuild && (
                  <Badge color="orange" variant="light">
                    Fails build
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>
              <Button
                variant="light"
                size="compact-sm"
                aria-label={`Ignore ${v.issue} in ${v.packageId}@${v.version}`}
                onClick={() => onIgnore(v)}
              >
                Ignore
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** /admin/security_violations: what the watches' policies find, filtered, each ignorable; and the ignore rules. */
export function ViolationsPage({ repositories }: ViolationsPageProps) {
  const [tab, setTab] = useState<string | null>('violations')
  const [filters, setFilters] = useState<ViolationFilters>(noFilters)
  const [ignoring, setIgnoring] = useState<Violation | null>(null)
  const violations = useViolations(serverFilter(filters))
  const rows = (violations.data ?? []).filter((v) => matchesText(v, filters.text))

  return (
    <>
      <PageHeader title={ScreenMessages.scannerViolationsTitle} breadcrumbs={['Administration', 'Security & Compliance']} />
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List mb="md">
          <Tabs.Tab value="violations">{ScreenMessages.scannerViolationsTitle}</Tabs.Tab>
          <Tabs.Tab value="ignored">{ScreenMessages.scannerIgnoreRulesTitle}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="violations">
          <Filters filters={filters} repositories={repositories} onChange={setFilters} />
          {violations.error && (
            <Alert color="red" variant="light" role="alert" mb="sm">
              {violations.error.message || Messages.somethingWentWrong}
            </Alert>
          )}
          {violations.isPending ? (
            <Skeleton h={120} />
          ) : rows.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              {ScreenMessages.scannerNoViolations}
            </Text>
          ) : (
            <>
              <Text size="sm" c="dimmed" mb={6}>
                {rows.length} {rows.length === 1 ? 'violation' : 'violations'}
              </Text>
              <ViolationsTable rows={rows} onIgnore={setIgnoring} />
            </>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="ignored">{tab === 'ignored' && <IgnoreRulesTable />}</Tabs.Panel>
      </Tabs>
      <IgnoreDialog violation={ignoring} onClose={() => setIgnoring(null)} />
    </>
  )
}
