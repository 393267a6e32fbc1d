import { Alert, Anchor, Button, Code, Group, Loader, Menu, Modal, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import type { VersionNode } from '@trove/contracts/packages'
import { SCANNER_PAGE_ROWS, type ScannedVersionRef } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useState } from 'react'
import { FindingsTable } from '../../../ui/FindingsTable'
import { SeverityBadge } from '../../../ui/SeverityBadge'
import { VulnerabilityBadges } from '../../../ui/VulnerabilityBadges'
import { advisoryDetailsQuery, componentFindingsQuery, sbomUrl, scanSummaryQuery } from '../api/securityApi'

/** §6: the security data's messages, then the version's scan: counts, its vulnerable components and one advisory. */
export function SecurityTab({
  packageId,
  version,
  scannerPresent,
  securityLicense,
}: {
  packageId: string
  version: VersionNode
  scannerPresent: boolean
  securityLicense: boolean
}) {
  if (!scannerPresent) return <Alert color="gray">{Messages.xrayUnavailable}</Alert>
  if (!securityLicense) return <Alert color="gray">{Messages.xrayLicenseRequired}</Alert>
  const repo = version.repos?.[0]?.name
  return <ScanResults ref_={{ package_id: packageId, version: version.name ?? '', ...(repo ? { repo } : {}) }} />
}

function ScanResults({ ref_ }: { ref_: ScannedVersionRef }) {
  const summary = useQuery(scanSummaryQuery(ref_))
  const [page, setPage] = useState(1)
  const [advisory, setAdvisory] = useState<string | null>(null)
  const scanned = summary.data?.state === 'scanned'
  const findings = useQuery({ ...componentFindingsQuery(ref_, page), enabled: scanned })
  if (summary.isPending) return <Loader size="sm" aria-label="Loading security data" />
  if (summary.isError) return <Alert color="red">{summary.error.message || Messages.somethingWentWrong}</Alert>
  const s = summary.data
  if (s.state !== 'scanned') {
    return (
      <Stack gap={4}>
        <Text c="dimmed">{Messages.notScanned}</Text>
        {s.reason && <Text size="sm">{s.reason}</Text>}
      </Stack>
    )
  }
  const total = findings.data?.total_count ?? 0
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Text fw={500}>Vulnerabilities</Text>
        {total === 0 && findings.isSuccess ? <Text c="dimmed">None found</Text> : <VulnerabilityBadges value={s.counts} />}
        {s.os && (
          <Text size="sm" c="dimmed">
            OS: {s.os}
          </Text>
        )}
        <SbomMenu ref_={ref_} />
      </Group>
      {s.reason && (
        <Alert color="yellow" title="Partly scanned">
          {s.reason}
        </Alert>
      )}
      {findings.isPending && <Loader size="sm" aria-label="Loading components" />}
      {findings.isSuccess && total > 0 && (
        <FindingsTable
          label="Vulnerable components"
          rows={findings.data.data}
          total={total}
          page={page}
          pageRows={SCANNER_PAGE_ROWS}
          onPage={setPage}
          onAdvisory={setAdvisory}
        />
      )}
      <Modal opened={advisory !== null} onClose={() => setAdvisory(null)} title={advisory ?? ''} size="lg">
        {advisory && <AdvisoryPanel id={advisory} />}
      </Modal>
    </Stack>
  )
}

/** The scanned version's SBOM in either format: plain links, so the browser downloads the attachment. */
function SbomMenu({ ref_ }: { ref_: ScannedVersionRef }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" ml="auto">
          {ScreenMessages.sbomExport}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={sbomUrl(ref_, 'cyclonedx')} download>
          {ScreenMessages.sbomCycloneDx}
        </Menu.Item>
        <Menu.Item component="a" href={sbomUrl(ref_, 'spdx')} download>
          {ScreenMessages.sbomSpdx}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}

function AdvisoryPanel({ id }: { id: string }) {
  const details = useQuery(advisoryDetailsQuery(id))
  if (details.isPending) return <Loader size="sm" aria-label="Loading advisory" />
  if (details.isError) return <Alert color="red">{details.error.message || Messages.somethingWentWrong}</Alert>
  const a = details.data
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <SeverityBadge severity={a.severity} />
        {a.cvss_score !== null && <Text size="sm">CVSS {a.cvss_score}</Text>}
        {a.aliases.length > 0 && <Text size="sm">{a.aliases.join(', ')}</Text>}
      </Group>
      <Text fw={500}>{a.summary}</Text>
      {a.cvss_vector && <Code>{a.cvss_vector}</Code>}
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {a.details}
      </Text>
      <Table aria-label="Affected packages">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Package</Table.Th>
            <Table.Th>Fixed in</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {a.affected.map((p) => (
            <Table.Tr key={`${p.ecosystem} ${p.release} ${p.name}`}>
              <Table.Td>
                {p.ecosystem}
                {p.release ? `:${p.release}` : ''} / {p.name}
              </Table.Td>
              <Table.Td>{p.fixed.join(', ') || '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {a.references.length > 0 && (
        <Stack gap={2} aria-label="References">
          <Text fw={500}>References</Text>
          {a.references.map((r) => (
            <Anchor
              key={r.url}
              href={r.url}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              style={{ overflowWrap: 'anywhere' }}
            >
              {r.url}
            </Anchor>
          ))}
        </Stack>
      )}
    </Stack>
  )
}
