import { Alert, Anchor, Button, Checkbox, Group, Loader, Stack, Table, Text, VisuallyHidden } from '@mantine/core'
import { BuildTexts } from '@trove/contracts/builds'
import { Messages } from '@trove/contracts/messages'
import { useEffect, useState } from 'react'
import { isNotFound } from '../../lib/api'
import { PageHeader } from '../../ui/PageHeader'
import { useBuildRuns } from './api/buildRuns'
import { diffPair, togglePick } from './buildRules'
import { AnchorLink } from './components/AnchorLink'
import { BuildDiffView } from './components/BuildDiffView'
import { DeleteRunDialog } from './components/DeleteRunDialog'
import { StatusBadge } from './components/StatusBadge'

export interface BuildRunsPageProps {
  name: string
  /** The build is unknown or not readable. */
  onNotFound: () => void
  /** Its last run was deleted. */
  onBuildGone: () => void
}

/** /builds/{name}: the runs of one build; pick two to see what changed; delete one (with the permission). */
export function BuildRunsPage({ name, onNotFound, onBuildGone }: BuildRunsPageProps) {
  const runs = useBuildRuns(name)
  const [picked, setPicked] = useState<string[]>([])
  const [deleting, setDeleting] = useState<string | null>(null)
  const notFound = isNotFound(runs.error)
  useEffect(() => {
    if (notFound) onNotFound()
  }, [notFound, onNotFound])
  const list = runs.data?.runs ?? []
  const pair = diffPair(list, picked)
  return (
    <Stack>
      <PageHeader title={name}>
        <AnchorLink to="/builds" size="sm">
          ‹ All builds
        </AnchorLink>
      </PageHeader>
      {runs.isPending ? (
        <Loader size="sm" aria-label="Loading runs" />
      ) : runs.error ? (
        notFound ? null : (
          <Alert color="red" variant="light" role="alert">
            {runs.error.message || Messages.somethingWentWrong}
          </Alert>
        )
      ) : (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {pair ? `Comparing run ${pair.number} with run ${pair.base}` : BuildTexts.pickTwoRuns}
            </Text>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {list.length} {list.length === 1 ? 'run' : 'runs'}
              </Text>
              {picked.length > 0 && (
                <Button variant="subtle" size="compact-sm" onClick={() => setPicked([])}>
                  Clear selection
                </Button>
              )}
            </Group>
          </Group>
          <Table striped highlightOnHover withTableBorder aria-label={`Runs of ${name}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <VisuallyHidden>Compare</VisuallyHidden>
                </Table.Th>
                <Table.Th>Run</Table.Th>
                <Table.Th>Started</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Agent</Table.Th>
                <Table.Th>CI</Table.Th>
                <Table.Th>Published by</Table.Th>
                {runs.data.canDelete && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((r) => (
                <Table.Tr key={r.number}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Compare run ${r.number}`}
                      checked={picked.includes(r.number)}
                      onChange={() => setPicked((p) => togglePick(p, r.number))}
                    />
                  </Table.Td>
                  <Table.Td>
                    <AnchorLink to="/builds/$name/$number" params={{ name, number: r.number }}>
                      #{r.number}
                    </AnchorLink>
                  </Table.Td>
                  <Table.Td>{new Date(r.started).toLocaleString()}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>{r.agent ?? '—'}</Table.Td>
                  <Table.Td>
                    {r.url ? (
                      <Anchor href={r.url} target="_blank" rel="noopener noreferrer" aria-label={`CI page of run ${r.number}`}>
                        Open
                      </Anchor>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>{r.publishedBy ?? '—'}</Table.Td>
                  {runs.data.canDelete && (
                    <Table.Td>
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        aria-label={`Delete run ${r.number}`}
                        onClick={() => setDeleting(r.number)}
                      >
                        Delete
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {pair && <BuildDiffView name={name} pair={pair} />}
        </>
      )}
      <DeleteRunDialog
        name={name}
        run={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(number) => {
          if (list.length <= 1) onBuildGone()
          else setPicked((p) => p.filter((n) => n !== number))
        }}
      />
    </Stack>
  )
}
