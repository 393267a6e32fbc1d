import { Alert, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import type { AdvisoryImport } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { PageHeader } from '../../ui/PageHeader'
import { useDatabase } from './api/database'
import { FeedForm } from './FeedForm'
import { ImportForm } from './ImportForm'

const NOWRAP = { whiteSpace: 'nowrap' } as const
const STATE_COLORS: Record<AdvisoryImport['state'], string> = { running: 'blue', done: 'green', failed: 'red' }

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} aria-label={label}>
        {value.toLocaleString()}
      </Text>
    </Card>
  )
}

function Imports({ imports }: { imports: AdvisoryImport[] }) {
  if (imports.length === 0)
    return (
      <Text c="dimmed" ta="center" py="md">
        {ScreenMessages.scannerNoImports}
      </Text>
    )
  return (
    <Table striped withTableBorder aria-label="Last imports">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Started</Table.Th>
          <Table.Th>Source</Table.Th>
          <Table.Th w={100}>State</Table.Th>
          <Table.Th ta="right">Records</Table.Th>
          <Table.Th>Message</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {imports.map((i) => (
          <Table.Tr key={i.id}>
            <Table.Td style={NOWRAP}>
              <Text size="sm">{new Date(i.startedAt).toLocaleString()}</Text>
              {i.createdBy && (
                <Text size="xs" c="dimmed">
                  by {i.createdBy}
                </Text>
              )}
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{i.source}</Table.Td>
            <Table.Td style={NOWRAP}>
              <Badge color={STATE_COLORS[i.state]} variant="light">
                {i.state}
              </Badge>
            </Table.Td>
            <Table.Td ta="right">{i.records.toLocaleString()}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Text size="sm" c={i.state === 'failed' ? 'red' : undefined}>
                {i.message ?? ''}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** /admin/security_database: the advisory database, its imports, an upload, and the feed it syncs from. */
export function DatabasePage() {
  const database = useDatabase()
  const data = database.data
  return (
    <>
      <PageHeader title={ScreenMessages.scannerDatabaseTitle} breadcrumbs={['Administration', 'Security & Compliance']} />
      {database.error && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {database.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {!data ? (
        database.isPending && <Skeleton h={240} />
      ) : (
        <Stack gap="lg">
          {!data.enabled && (
            <Alert color="blue" variant="light">
              {ScreenMessages.scannerNotOnThisNode}
            </Alert>
          )}
          {data.notice && (
            <Alert color="yellow" variant="light" role="status">
              {data.notice}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Stat label="Advisories" value={data.advisories} />
            <Stat label="Versions waiting for a scan" value={data.waiting} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder padding="md">
              <Title order={2} size="h4" mb="sm">
                Upload advisories
              </Title>
              <ImportForm />
            </Card>
            <Card withBorder padding="md">
              <Title order={2} size="h4" mb="sm">
                Advisory feed
              </Title>
              <FeedForm key={`${data.feed.url}\u0000${data.feed.intervalHours}`} feed={data.feed} />
            </Card>
          </SimpleGrid>
          <div>
            <Group justify="space-between" mb="xs">
              <Title order={2} size="h4">
                Last imports
              </Title>
            </Group>
            <Imports imports={data.imports} />
          </div>
        </Stack>
      )}
    </>
  )
}
