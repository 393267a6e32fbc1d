import { Alert, Badge, Loader, Stack, Table, Text, Title } from '@mantine/core'
import { type BuildChange, type BuildDiffEntry, BuildTexts } from '@trove/contracts/builds'
import { Messages } from '@trove/contracts/messages'
import { useBuildDiff } from '../api/buildDiff'
import { Checksum } from './Checksum'

// Dot badges: the colour is the dot's; the text keeps the body colour, which meets WCAG contrast
// (the light and filled variants' text did not, in these colours).
const CHANGE_COLORS: Record<BuildChange, string> = { added: 'green', removed: 'red', changed: 'orange' }

function DiffTable({ label, entries }: { label: string; entries: BuildDiffEntry[] }) {
  if (entries.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No changes
      </Text>
    )
  return (
    <Table striped withTableBorder aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Change</Table.Th>
          <Table.Th>Module</Table.Th>
          <Table.Th>Name</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a name may repeat within a module
          <Table.Tr key={`${e.module}-${e.name}-${e.change}-${i}`}>
            <Table.Td>
              <Badge variant="dot" color={CHANGE_COLORS[e.change]} style={{ overflow: 'visible' }}>
                {e.change}
              </Badge>
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.module}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.name}</Table.Td>
            <Table.Td>{e.type ?? '—'}</Table.Td>
            <Table.Td>
              <Checksum value={e.before?.sha1 ?? e.before?.sha256 ?? null} label="Before" />
            </Table.Td>
            <Table.Td>
              <Checksum value={e.after?.sha1 ?? e.after?.sha256 ?? null} label="After" />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** What run `number` added, removed and changed since run `base`. */
export function BuildDiffView({ name, pair }: { name: string; pair: { number: string; base: string } }) {
  const diff = useBuildDiff(name, pair)
  if (diff.isPending) return <Loader size="sm" aria-label="Loading the differences" />
  if (diff.error)
    return (
      <Alert color="red" variant="light" role="alert">
        {diff.error.message || Messages.somethingWentWrong}
      </Alert>
    )
  const { artifacts, dependencies } = diff.data
  return (
    <Stack gap="sm" component="section" aria-label="Differences">
      <Title order={2} size="h4">
        Run {pair.number} compared with run {pair.base}
      </Title>
      {artifacts.length === 0 && dependencies.length === 0 ? (
        <Text>{BuildTexts.noDifferences}</Text>
      ) : (
        <>
          <Title order={3} size="h6">
            Artifacts
          </Title>
          <DiffTable label="Changed artifacts" entries={artifacts} />
          <Title order={3} size="h6">
            Dependencies
          </Title>
          <DiffTable label="Changed dependencies" entries={dependencies} />
        </>
      )}
    </Stack>
  )
}
