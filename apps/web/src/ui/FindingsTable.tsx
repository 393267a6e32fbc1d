import { Anchor, Code, Pagination, Table, Text } from '@mantine/core'
import type { Severity } from '@trove/contracts/scanner'
import { SeverityBadge } from './SeverityBadge'

/** One row of a scan's findings: a component an advisory affects (a version's or a git repository's). */
export interface FindingRow {
  advisory_id: string
  aliases: string[]
  severity: Severity
  component: string
  ecosystem: string
  version: string
  /** Where the component was found (a manifest, a layer's file, the package that pins it); "" for the package itself */
  path: string
  fixed_versions: string[]
  summary: string
}

export interface FindingsTableProps {
  /** The table's accessible name */
  label: string
  rows: FindingRow[]
  total: number
  page: number
  pageRows: number
  onPage: (page: number) => void
  /** Opens one advisory's details; without it the id is plain text */
  onAdvisory?: (id: string) => void
}

/** A page of findings with their advisories, severities, components and fixes, and the pages below. */
export function FindingsTable({ label, rows, total, page, pageRows, onPage, onAdvisory }: FindingsTableProps) {
  return (
    <>
      <Table aria-label={label} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Advisory</Table.Th>
            <Table.Th>Severity</Table.Th>
            <Table.Th>Component</Table.Th>
            <Table.Th>Version</Table.Th>
            <Table.Th style={{ whiteSpace: 'nowrap' }}>Fixed in</Table.Th>
            <Table.Th>Summary</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((f) => (
            <Table.Tr key={`${f.advisory_id} ${f.ecosystem} ${f.component} ${f.version} ${f.path}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {onAdvisory ? (
                  <Anchor component="button" onClick={() => onAdvisory(f.advisory_id)}>
                    {f.advisory_id}
                  </Anchor>
                ) : (
                  <Text size="sm">{f.advisory_id}</Text>
                )}
                {f.aliases.length > 0 && (
                  <Text size="xs" c="dimmed">
                    {f.aliases.join(', ')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <SeverityBadge severity={f.severity} />
              </Table.Td>
              <Table.Td>
                {f.component}
                {f.path && (
                  <Text size="xs" c="dimmed">
                    <Code>{f.path}</Code> ({f.ecosystem})
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{f.version}</Table.Td>
              <Table.Td>{f.fixed_versions.join(', ') || '—'}</Table.Td>
              <Table.Td>{f.summary}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {total > pageRows && (
        <Pagination total={Math.ceil(total / pageRows)} value={page} onChange={onPage} aria-label={`${label}: pages`} />
      )}
    </>
  )
}
