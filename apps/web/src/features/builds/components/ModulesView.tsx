import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core'
import type { BuildModule, BuildModuleItem } from '@trove/contracts/builds'
import { ArtifactLink } from './ArtifactLink'
import { Checksum } from './Checksum'

function ItemsTable({ label, items, scopes }: { label: string; items: BuildModuleItem[]; scopes: boolean }) {
  if (items.length === 0)
    return (
      <Text c="dimmed" size="sm">
        None
      </Text>
    )
  return (
    <Table striped withTableBorder aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Type</Table.Th>
          {scopes && <Table.Th>Scopes</Table.Th>}
          <Table.Th>SHA-1</Table.Th>
          <Table.Th>SHA-256</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item, i) => (
          // Items are the document's as published: a name may repeat.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Table.Tr key={`${item.name}-${i}`}>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              {item.file ? <ArtifactLink file={item.file}>{item.name || '(unnamed)'}</ArtifactLink> : item.name || '(unnamed)'}
            </Table.Td>
            <Table.Td>{item.type ?? '—'}</Table.Td>
            {scopes && <Table.Td>{item.scopes.join(', ') || '—'}</Table.Td>}
            <Table.Td>
              <Checksum value={item.sha1} label="SHA-1" />
            </Table.Td>
            <Table.Td>
              <Checksum value={item.sha256} label="SHA-256" />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** A run's modules, each with what it produced (artifacts) and used (dependencies). */
export function ModulesView({ modules }: { modules: BuildModule[] }) {
  if (modules.length === 0) return <Text c="dimmed">This run lists no modules.</Text>
  return (
    <Stack gap="xl">
      {modules.map((m) => (
        <Stack key={m.id} gap="xs" component="section" aria-label={`Module ${m.id}`}>
          <Group gap="xs">
            <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {m.id}
            </Title>
            <Badge variant="light" color="gray">
              {m.artifacts.length} artifacts · {m.dependencies.length} dependencies
            </Badge>
          </Group>
          <Title order={4} size="h6">
            Artifacts
          </Title>
          <ItemsTable label={`Artifacts of ${m.id}`} items={m.artifacts} scopes={false} />
          <Title order={4} size="h6">
            Dependencies
          </Title>
          <ItemsTable label={`Dependencies of ${m.id}`} items={m.dependencies} scopes />
        </Stack>
      ))}
    </Stack>
  )
}
