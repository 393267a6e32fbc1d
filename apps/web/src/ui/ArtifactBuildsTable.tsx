import { Anchor, Table, Text } from '@mantine/core'
import type { ArtifactBuildsResponse } from '@trove/contracts/packages'

export interface ArtifactBuildsTableProps {
  builds: ArtifactBuildsResponse
  /** What to say when no build produced or used the file. */
  empty: string
}

/**
 * The builds that produced or used a file (matched by checksum): each links to its run in the
 * console, and to its CI job when the build info named one. The packages browser's version and
 * the artifact tree's file show it alike.
 */
export function ArtifactBuildsTable({ builds, empty }: ArtifactBuildsTableProps) {
  const rows = [
    ...builds.producedBy.map((b) => ({ ...b, relation: 'Produced by' })),
    ...builds.usedBy.map((b) => ({ ...b, relation: 'Used by' })),
  ]
  if (rows.length === 0) return <Text c="dimmed">{empty}</Text>
  return (
    <Table aria-label="Builds" striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Build</Table.Th>
          <Table.Th>Number</Table.Th>
          <Table.Th>Module</Table.Th>
          <Table.Th>Started</Table.Th>
          <Table.Th>Relation</Table.Th>
          <Table.Th>CI</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((b) => (
          <Table.Tr key={`${b.relation}:${b.name}:${b.number}:${b.moduleId}`}>
            <Table.Td>
              <Anchor href={`/ui/builds/${encodeURIComponent(b.name)}/${encodeURIComponent(b.number)}`}>{b.name}</Anchor>
            </Table.Td>
            <Table.Td>{b.number}</Table.Td>
            <Table.Td>{b.moduleId}</Table.Td>
            <Table.Td>{new Date(b.started).toLocaleString()}</Table.Td>
            <Table.Td>{b.relation}</Table.Td>
            <Table.Td>{b.ciUrl ? <Anchor href={b.ciUrl}>Job</Anchor> : '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
