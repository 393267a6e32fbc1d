import { Alert, Anchor, Badge, Button, Checkbox, Code, Group, Skeleton, Table, Text } from '@mantine/core'
import { Link, useSearch } from '@tanstack/react-router'
import { type GitRepoScan, gitVendor, type SelectedRepository } from '@trove/contracts/gitIntegrations'
import { format, Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useEffect, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { VulnerabilityBadges } from '../../ui/VulnerabilityBadges'
import { useRepositories, useSaveSelection, useSelected } from './api/repositories'
import { RepositoryFindings } from './RepositoryFindings'

const CLONE_STATUS: Record<SelectedRepository['status'], { label: string; color: string }> = {
  pending: { label: 'Cloning', color: 'blue' },
  cloned: { label: 'Cloned', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
}

const SCAN_STATE: Record<GitRepoScan['state'], { label: string; color: string }> = {
  waiting: { label: ScreenMessages.gitScanWaiting, color: 'gray' },
  scanning: { label: ScreenMessages.gitScanScanning, color: 'blue' },
  scanned: { label: ScreenMessages.gitScanScanned, color: 'green' },
  not_scanned: { label: ScreenMessages.gitScanNotScanned, color: 'red' },
}

function ScanState({ scan }: { scan: GitRepoScan }) {
  return (
    <>
      <Badge color={SCAN_STATE[scan.state].color} variant="dot" style={{ overflow: 'visible' }}>
        {SCAN_STATE[scan.state].label}
      </Badge>
      {scan.reason && (
        <Text size="xs" c="red.9">
          {scan.reason}
        </Text>
      )}
    </>
  )
}

function ScanCounts({ scan }: { scan: GitRepoScan }) {
  if (!scan.counts) return <Text c="dimmed">—</Text>
  const total = Object.values(scan.counts).reduce((a, b) => a + b, 0)
  if (total === 0) return <Text size="sm">{ScreenMessages.gitScanClean}</Text>
  return <VulnerabilityBadges value={{ ...scan.counts, info: 0, skipped: 0 }} />
}

function Selected({ integrationId, rows }: { integrationId: string; rows: SelectedRepository[] }) {
  const [open, setOpen] = useState<string | null>(null)
  if (rows.length === 0) return null
  return (
    <>
      <Table withTableBorder mt="lg" aria-label="Repositories selected for scanning">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Selected repository</Table.Th>
            <Table.Th>Clone</Table.Th>
            <Table.Th>HEAD commit</Table.Th>
            <Table.Th>Scan</Table.Th>
            <Table.Th>Vulnerabilities</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.fullName}>
              <Table.Td>{r.fullName}</Table.Td>
              <Table.Td>
                <Badge color={CLONE_STATUS[r.status].color} variant="dot" style={{ overflow: 'visible' }}>
                  {CLONE_STATUS[r.status].label}
                </Badge>
                {r.error && (
                  <Text size="xs" c="red.9">
                    {r.error}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{r.headCommit ? <Code>{r.headCommit.slice(0, 12)}</Code> : '—'}</Table.Td>
              <Table.Td>
                <ScanState scan={r.scan} />
              </Table.Td>
              <Table.Td>
                <ScanCounts scan={r.scan} />
              </Table.Td>
              <Table.Td>
                <Button
                  variant="default"
                  size="xs"
                  disabled={r.scan.state !== 'scanned'}
                  aria-label={format(ScreenMessages.gitScanFindingsOf, { repository: r.fullName })}
                  onClick={() => setOpen(r.fullName)}
                >
                  {ScreenMessages.gitScanFindings}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <RepositoryFindings
        integrationId={integrationId}
        repository={rows.find((r) => r.fullName === open) ?? null}
        onClose={() => setOpen(null)}
      />
    </>
  )
}

/**
 * Route gitRepoScan.selectRepos (§2), opened with vcsType and integrationId: the repositories the
 * integration's token can see, a vendor page at a time; the chosen ones are kept for the security
 * scanner and cloned, and each shows its scan, its vulnerabilities and, in a dialog, its findings.
 */
export function SelectReposPage() {
  const { vcsType = '', integrationId = '' } = useSearch({ strict: false }) as { vcsType?: string; integrationId?: string }
  const [page, setPage] = useState(1)
  const repositories = useRepositories(integrationId, page)
  const selected = useSelected(integrationId)
  const save = useSaveSelection(integrationId)
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  useEffect(() => {
    if (selected.data && !save.isPending) setChosen(new Set(selected.data.map((r) => r.fullName)))
  }, [selected.data, save.isPending])
  const toggle = (name: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev)
      if (on) next.add(name)
      else next.delete(name)
      return next
    })
  const error = repositories.error ?? selected.error ?? save.error
  const data = repositories.data
  // Opened without an integration (a bookmark, a typed address): say where to pick one.
  if (!integrationId)
    return (
      <>
        <PageHeader title="Select repositories" breadcrumbs={['Integrations']} />
        <Alert color="blue" variant="light" role="status">
          Repositories are selected per git integration: open one from{' '}
          <Anchor component={Link} to="/integrations">
            Integrations
          </Anchor>{' '}
          (a git vendor, then its integration’s Security scanner action).
        </Alert>
      </>
    )
  return (
    <>
      <PageHeader title="Select repositories" breadcrumbs={['Integrations', gitVendor(vcsType)?.displayName ?? vcsType]} />
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed">
          The security scanner scans the repositories you select; each is cloned here.
        </Text>
        <Button onClick={() => save.mutate([...chosen].sort())} loading={save.isPending}>
          Save selection ({chosen.size})
        </Button>
      </Group>
      {error && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {repositories.isPending ? (
        <Skeleton h={200} />
      ) : (
        <Table striped withTableBorder aria-label="Repositories">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40} />
              <Table.Th>Repository</Table.Th>
              <Table.Th>Default branch</Table.Th>
              <Table.Th>Visibility</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.repositories.map((r) => (
              <Table.Tr key={r.fullName}>
                <Table.Td>
                  <Checkbox
                    aria-label={r.fullName}
                    checked={chosen.has(r.fullName)}
                    onChange={(e) => toggle(r.fullName, e.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>{r.fullName}</Table.Td>
                <Table.Td>{r.defaultBranch ?? '—'}</Table.Td>
                <Table.Td>{r.private ? 'Private' : 'Public'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group justify="flex-end" mt="sm" gap="xs">
        <Text size="sm" c="dimmed">
          Page {page}
        </Text>
        <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          Previous
        </Button>
        <Button variant="default" size="xs" disabled={!data?.nextPage} onClick={() => data?.nextPage && setPage(data.nextPage)}>
          Next
        </Button>
      </Group>
      <Selected integrationId={integrationId} rows={selected.data ?? []} />
    </>
  )
}
