import {
  Alert,
  Badge,
  Button,
  CopyButton,
  Group,
  Modal,
  NativeSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import {
  PACKAGE_TYPE_NAMES,
  PACKAGE_TYPE_OPTIONS,
  type PackageTypeName,
  REPO_CLASSES,
  type RepoClassName,
  SAMPLE_REPOSITORIES,
} from '@trove/contracts/repositoryConstants'
import { useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { useDeleteRepository } from './api/deleteRepository'
import { useRepositories } from './api/listRepositories'
import { useQuickCreate } from './api/quickCreate'

const CLASS_LABELS: Record<RepoClassName, string> = { local: 'Local', remote: 'Remote', virtual: 'Virtual' }

export interface RepositoriesPageProps {
  onNew: (rclass: RepoClassName) => void
  onEdit: (key: string, rclass: RepoClassName) => void
}

/** /admin/repositories: every repository, the New Local/Remote/Virtual actions, quick creation and deletion. */
export function RepositoriesPage({ onNew, onEdit }: RepositoriesPageProps) {
  const repositories = useRepositories()
  const remove = useDeleteRepository()
  const [filter, setFilter] = useState<'all' | RepoClassName>('all')
  const [deleting, setDeleting] = useState<string | null>(null)
  const rows = (repositories.data ?? []).filter((r) => filter === 'all' || r.type.toLowerCase() === filter)
  return (
    <Stack>
      <PageHeader title="Repositories" breadcrumbs={['Administration', 'Repositories']}>
        <Group gap="xs">
          {REPO_CLASSES.map((rclass) => (
            <Button key={rclass} variant="light" onClick={() => onNew(rclass)}>
              New {CLASS_LABELS[rclass]} Repository
            </Button>
          ))}
        </Group>
      </PageHeader>
      <QuickCreation />
      <Group justify="space-between">
        <SegmentedControl
          aria-label="Repository class"
          value={filter}
          onChange={(v) => setFilter(v as typeof filter)}
          data={[{ value: 'all', label: 'All' }, ...REPO_CLASSES.map((c) => ({ value: c, label: CLASS_LABELS[c] }))]}
        />
        <Text size="sm" c="dimmed">
          {rows.length} {rows.length === 1 ? 'repository' : 'repositories'}
        </Text>
      </Group>
      {(repositories.error ?? remove.error) && (
        <Alert color="red" variant="light" role="alert">
          {(repositories.error ?? remove.error)?.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {rows.length === 0 && !repositories.isLoading ? (
        <Text c="dimmed">No repositories yet: create one, or use quick creation above.</Text>
      ) : (
        <Table striped highlightOnHover withTableBorder aria-label="Repositories">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Key</Table.Th>
              <Table.Th>Class</Table.Th>
              <Table.Th>Package type</Table.Th>
              <Table.Th>URL</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => {
              const rclass = r.type.toLowerCase() as RepoClassName
              return (
                <Table.Tr key={r.key}>
                  <Table.Td>
                    <Button variant="subtle" size="compact-sm" onClick={() => onEdit(r.key, rclass)} aria-label={`Edit ${r.key}`}>
                      {r.key}
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" style={{ flexShrink: 0, overflow: 'visible' }}>
                      {CLASS_LABELS[rclass]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{PACKAGE_TYPE_NAMES[r.packageType.toLowerCase() as PackageTypeName] ?? r.packageType}</Table.Td>
                  <Table.Td>
                    {/* What the package client is configured with (the URL set-me-up writes), to copy. */}
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                        {r.clientUrl}
                      </Text>
                      <CopyButton value={r.clientUrl}>
                        {({ copied, copy }) => (
                          <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={`Copy the URL of ${r.key}`}>
                            {copied ? 'Copied' : 'Copy'}
                          </Button>
                        )}
                      </CopyButton>
                    </Group>
                  </Table.Td>
                  <Table.Td>{r.description}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="subtle"
                      onClick={() => setDeleting(r.key)}
                      aria-label={`Delete ${r.key}`}
                    >
                      Delete
                    </Button>
                  </Table.Td>
                </Table.Tr>
              )
            })}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={`Delete ${deleting ?? ''}?`}>
        <Stack>
          <Text>Everything stored in this repository is deleted with it. This cannot be undone.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => {
                if (deleting) remove.mutate(deleting, { onSettled: () => setDeleting(null) })
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  )
}

/** Quick Repository Creation: the sample repositories of one package type in one click. */
function QuickCreation() {
  const quick = useQuickCreate()
  const [packageType, setPackageType] = useState<PackageTypeName>('npm')
  const [remoteUrl, setRemoteUrl] = useState('')
  const samples = SAMPLE_REPOSITORIES[packageType]
  const hasRemote = samples.some((s) => s.rclass === 'remote')
  return (
    <Stack gap="xs" p="md" bd="1px solid var(--mantine-color-default-border)" style={{ borderRadius: 8 }}>
      <Title order={2} size="h5">
        Quick Repository Creation
      </Title>
      <Group align="end" gap="xs">
        <NativeSelect
          label="Package type"
          data={PACKAGE_TYPE_OPTIONS}
          value={packageType}
          onChange={(e) => setPackageType(e.currentTarget.value as PackageTypeName)}
        />
        {hasRemote && (
          <TextInput
            label="Upstream URL of the remote (optional)"
            placeholder="https://…"
            value={remoteUrl}
            onChange={(e) => setRemoteUrl(e.currentTarget.value)}
            w={320}
          />
        )}
        <Button loading={quick.isPending} onClick={() => quick.mutate({ packageType, remoteUrl: remoteUrl.trim() || undefined })}>
          Create{' '}
          {samples
            .filter((s) => s.rclass !== 'remote' || remoteUrl.trim())
            .map((s) => s.key)
            .join(', ')}
        </Button>
      </Group>
      {quick.data && (
        <Alert color="green" variant="light" role="status">
          {quick.data.created.length > 0 ? `Created ${quick.data.created.join(', ')}.` : 'Nothing new to create.'}
          {quick.data.existing.length > 0 ? ` Already there: ${quick.data.existing.join(', ')}.` : ''}
        </Alert>
      )}
      {quick.error && (
        <Alert color="red" variant="light" role="alert">
          {quick.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
    </Stack>
  )
}
