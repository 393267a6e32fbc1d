import { Table, Text } from '@mantine/core'
import type { BuildProperty } from '@trove/contracts/builds'

/** Name/value pairs of a run (its environment or its other properties). */
export function PropertiesTable({ label, rows, empty }: { label: string; rows: BuildProperty[]; empty: string }) {
  if (rows.length === 0) return <Text c="dimmed">{empty}</Text>
  return (
    <Table striped withTableBorder aria-label={label} layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="35%">Name</Table.Th>
          <Table.Th>Value</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((p) => (
          <Table.Tr key={p.name}>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{p.name}</Table.Td>
            <Table.Td>
              <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {p.value}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
