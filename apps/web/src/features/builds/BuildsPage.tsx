import { Alert, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core'
import { BuildTexts } from '@trove/contracts/builds'
import { Messages } from '@trove/contracts/messages'
import { useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { useBuilds } from './api/listBuilds'
import { filterBuilds } from './buildRules'
import { AnchorLink } from './components/AnchorLink'
import { StatusBadge } from './components/StatusBadge'

/** /builds: every build the caller may read, with its last run, and a filter. */
export function BuildsPage({ initialFilter = '' }: { initialFilter?: string }) {
  const builds = useBuilds()
  const [filter, setFilter] = useState(initialFilter)
  const all = builds.data?.builds ?? []
  const rows = filterBuilds(all, filter)
  return (
    <Stack>
      <PageHeader title="Builds" />
      {builds.isPending ? (
        <Loader size="sm" aria-label="Loading builds" />
      ) : builds.error ? (
        <Alert color="red" variant="light" role="alert">
          {builds.error.message || Messages.somethingWentWrong}
        </Alert>
      ) : all.length === 0 ? (
        <Text c="dimmed">{BuildTexts.noBuilds}</Text>
      ) : (
        <>
          <Group justify="space-between" align="end">
            <TextInput
              label="Filter builds"
              placeholder="Name, number or status"
              value={filter}
              onChange={(e) => setFilter(e.currentTarget.value)}
              w={320}
            />
            <Text size="sm" c="dimmed">
              {rows.length === all.length ? `${all.length}` : `${rows.length} of ${all.length}`}{' '}
              {all.length === 1 ? 'build' : 'builds'}
            </Text>
          </Group>
          {rows.length === 0 ? (
            <Text c="dimmed">{BuildTexts.noMatchingBuilds}</Text>
          ) : (
            <Table striped highlightOnHover withTableBorder aria-label="Builds">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Build name</Table.Th>
                  <Table.Th>Last run</Table.Th>
                  <Table.Th>Last started</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Runs</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((b) => (
                  <Table.Tr key={b.name}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <AnchorLink to="/builds/$name" params={{ name: b.name }}>
                        {b.name}
                      </AnchorLink>
                    </Table.Td>
                    <Table.Td>
                      <AnchorLink
                        to="/builds/$name/$number"
                        params={{ name: b.name, number: b.lastNumber }}
                        aria-label={`${b.name} run ${b.lastNumber}`}
                      >
                        #{b.lastNumber}
                      </AnchorLink>
                    </Table.Td>
                    <Table.Td>{new Date(b.lastStarted).toLocaleString()}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={b.status} />
                    </Table.Td>
                    <Table.Td>{b.runs}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Stack>
  )
}
