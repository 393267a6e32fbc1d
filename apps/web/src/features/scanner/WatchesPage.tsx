import { Alert, Badge, Button, Group, Skeleton, Stack, Table, Text } from '@mantine/core'
import { format, Messages } from '@trove/contracts/messages'
import { ALL_REPOSITORIES, type SecurityWatch } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useState } from 'react'
import { notify } from '../../lib/notify'
import { PageHeader } from '../../ui/PageHeader'
import { useDeleteWatch, useWatches } from './api/watches'
import { ConfirmDialog } from './ConfirmDialog'
import { WatchDialog } from './WatchDialog'

function Names({ names, color }: { names: string[]; color?: string }) {
  if (names.length === 0) return <Text c="dimmed">—</Text>
  return (
    <Group gap={4}>
      {names.map((n) => (
        <Badge key={n} variant="light" color={color} tt="none">
          {n}
        </Badge>
      ))}
    </Group>
  )
}

export interface WatchesPageProps {
  /** The repository keys a watch may name */
  repositories: string[]
}

/** /admin/security_watches: which policies apply to which repositories. */
export function WatchesPage({ repositories }: WatchesPageProps) {
  const watches = useWatches()
  const remove = useDeleteWatch()
  const [editing, setEditing] = useState<{ watch?: SecurityWatch } | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)
  const closeDelete = () => {
    remove.reset()
    setDeleting(null)
  }
  const rows = watches.data ?? []

  return (
    <>
      <PageHeader title={ScreenMessages.scannerWatchesTitle} breadcrumbs={['Administration', 'Security & Compliance']} />
      <Group justify="flex-end" mb="sm">
        <Button onClick={() => setEditing({})}>New watch</Button>
      </Group>
      {watches.error && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {watches.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {watches.isPending ? (
        <Skeleton h={120} />
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {ScreenMessages.scannerNoWatches}
        </Text>
      ) : (
        <Table striped withTableBorder aria-label={ScreenMessages.scannerWatchesTitle}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Covers</Table.Th>
              <Table.Th>Policies</Table.Th>
              <Table.Th w={150} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((w) => (
              <Table.Tr key={w.name}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {w.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    {w.repositories.includes(ALL_REPOSITORIES) ? (
                      <Text size="sm">All repositories</Text>
                    ) : (
                      w.repositories.length > 0 && <Names names={w.repositories} color="gray" />
                    )}
                    {w.projects.length > 0 && <Names names={w.projects.map((p) => `project ${p}`)} color="teal" />}
                    {w.builds.length > 0 && (
                      <Names names={w.builds.map((b) => (b === '*' ? 'every build' : `build ${b}`))} color="violet" />
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Names names={w.policies} />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      aria-label={`Edit ${w.name}`}
                      onClick={() => setEditing({ watch: w })}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      aria-label={`Delete ${w.name}`}
                      onClick={() => setDeleting(w.name)}
                    >
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <WatchDialog
        opened={editing !== null}
        watch={editing?.watch}
        repositories={repositories}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        title="Delete watch"
        confirmLabel="Delete"
        message={deleting && format(ScreenMessages.scannerWatchDeleteConfirm, { name: deleting })}
        pending={remove.isPending}
        error={remove.error}
        onClose={closeDelete}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting, {
            onSuccess: () => {
              notify({ color: 'green', message: format(ScreenMessages.scannerWatchDeleted, { name: deleting }) })
              closeDelete()
            },
          })
        }
      />
    </>
  )
}
