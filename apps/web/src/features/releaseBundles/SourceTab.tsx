import { Alert, Anchor, Button, Group, Loader, SimpleGrid, Stack, Table, Text } from '@mantine/core'
import type { BundleDetails, BundleSummary } from '@trove/contracts/distribution'
import { Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { type ComponentType, useState } from 'react'
import { formatSize } from '../../lib/format'
import { isModuleOff } from './api/distributionRequest'
import { type BundleOrigin, useBundles } from './api/listBundles'
import { BundleStateBadge, DistributionBadge } from './components/Badges'
import type { BundleRef } from './components/BundleDrawer'
import { BundleFilter, useBundleFilter } from './components/BundleFilter'
import { ChecksumLookup } from './components/ChecksumLookup'
import { CreateBundleDialog } from './components/CreateBundleDialog'
import { ModuleOff } from './components/ModuleOff'
import { Pager, usePaged } from './components/Paged'
import { SigningKeysPanel } from './components/SigningKeysPanel'
import type { RepositoryOption } from './components/SourceFields'
import { TargetsPanel } from './components/TargetsPanel'
import { when } from './when'

export interface SourceTabProps {
  admin: boolean
  initialQuery: string
  repositories: RepositoryOption[]
  Markdown: ComponentType<{ text: string }>
  onOpen: (origin: BundleOrigin, bundle: BundleRef) => void
}

/**
 * Bundles made here: the list with its filter, a new bundle, the checksum lookup, and
 * (administrators) the targets and the signing keys.
 */
export function SourceTab({ admin, initialQuery, repositories, Markdown, onOpen }: SourceTabProps) {
  const filter = useBundleFilter(initialQuery)
  const bundles = useBundles('source', filter.q)
  const [creating, setCreating] = useState(false)
  if (isModuleOff(bundles.error)) return <ModuleOff />
  const all = bundles.data?.bundles ?? []
  return (
    <Stack>
      <Group justify="space-between" align="end">
        <BundleFilter value={filter.text} onChange={filter.setText} />
        <Button onClick={() => setCreating(true)}>New bundle</Button>
      </Group>
      {bundles.isPending ? (
        <Loader size="sm" aria-label="Loading bundles" />
      ) : bundles.error ? (
        <Alert color="red" variant="light" role="alert">
          {bundles.error.message || Messages.somethingWentWrong}
        </Alert>
      ) : all.length === 0 ? (
        <Text c="dimmed" py="md">
          {filter.q.trim() ? ReleaseBundleMessages.noMatchingBundles : ReleaseBundleMessages.noSourceBundles}
        </Text>
      ) : (
        <SourceTable bundles={all} onOpen={(b) => onOpen('source', b)} />
      )}
      <SimpleGrid cols={{ base: 1, md: admin ? 2 : 1 }} spacing="md" mt="md" style={{ alignItems: 'start' }}>
        <ChecksumLookup onOpen={(m) => onOpen(m.origin, m)} />
        {admin && (
          <Stack gap="md">
            <TargetsPanel />
            <SigningKeysPanel />
          </Stack>
        )}
      </SimpleGrid>
      <CreateBundleDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(b: BundleDetails) => onOpen('source', b)}
        repositories={repositories}
        Markdown={Markdown}
      />
    </Stack>
  )
}

function SourceTable({ bundles, onOpen }: { bundles: BundleSummary[]; onOpen: (b: BundleRef) => void }) {
  const paged = usePaged(bundles)
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover withTableBorder aria-label="Release bundles made here">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th ta="right">Files</Table.Th>
              <Table.Th ta="right">Size</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Distributed to</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {paged.rows.map((b) => {
              // A target it was removed from is no longer a place it went to.
              const sent = b.distributedTo.filter((d) => d.state !== 'deleted')
              return (
                <Table.Tr key={`${b.name}\u0000${b.version}`}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      fw={600}
                      onClick={() => onOpen(b)}
                      aria-label={`Open ${b.name} ${b.version}`}
                    >
                      {b.name}
                    </Anchor>
                    {b.description && (
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {b.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{b.version}</Table.Td>
                  <Table.Td>
                    <BundleStateBadge state={b.state} />
                  </Table.Td>
                  <Table.Td ta="right">{b.files}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatSize(b.size)}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {when(b.createdAt)}
                    </Text>
                    {b.createdBy && (
                      <Text size="xs" c="dimmed">
                        by {b.createdBy}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {sent.length === 0 ? (
                      <Text span c="dimmed">
                        —
                      </Text>
                    ) : (
                      <Group gap={4}>
                        {sent.map((d) => (
                          <DistributionBadge key={d.target} target={d.target} state={d.state} />
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              )
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {bundles.length} {bundles.length === 1 ? 'bundle' : 'bundles'}
        </Text>
        <Pager page={paged.page} pages={paged.pages} onChange={paged.setPage} />
      </Group>
    </Stack>
  )
}
