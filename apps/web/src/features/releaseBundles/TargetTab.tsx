import { Alert, Anchor, Group, Loader, Stack, Table, Text } from '@mantine/core'
import type { BundleSummary } from '@trove/contracts/distribution'
import { Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { formatSize } from '../../lib/format'
import { isModuleOff } from './api/distributionRequest'
import { type BundleOrigin, useBundles } from './api/listBundles'
import { VerifiedBadge } from './components/Badges'
import type { BundleRef } from './components/BundleDrawer'
import { BundleFilter, useBundleFilter } from './components/BundleFilter'
import { ModuleOff } from './components/ModuleOff'
import { Pager, usePaged } from './components/Paged'
import { RetentionPanel } from './components/RetentionPanel'
import { SourceAddress } from './components/SourceAddress'
import { when } from './when'

export interface TargetTabProps {
  admin: boolean
  initialQuery: string
  onOpen: (origin: BundleOrigin, bundle: BundleRef) => void
}

/** Bundles received here from other nodes, and (administrators) how long they are kept. */
export function TargetTab({ admin, initialQuery, onOpen }: TargetTabProps) {
  const filter = useBundleFilter(initialQuery)
  const bundles = useBundles('target', filter.q)
  if (isModuleOff(bundles.error)) return <ModuleOff />
  const all = bundles.data?.bundles ?? []
  return (
    <Stack>
      <Group justify="space-between" align="end">
        <BundleFilter value={filter.text} onChange={filter.setText} />
      </Group>
      {bundles.isPending ? (
        <Loader size="sm" aria-label="Loading bundles" />
      ) : bundles.error ? (
        <Alert color="red" variant="light" role="alert">
          {bundles.error.message || Messages.somethingWentWrong}
        </Alert>
      ) : all.length === 0 ? (
        <Text c="dimmed" py="md">
          {filter.q.trim() ? ReleaseBundleMessages.noMatchingBundles : ReleaseBundleMessages.noTargetBundles}
        </Text>
      ) : (
        <TargetTable bundles={all} onOpen={(b) => onOpen('target', b)} />
      )}
      {admin && (
        <Stack mt="md" maw={640}>
          <RetentionPanel />
        </Stack>
      )}
    </Stack>
  )
}

function TargetTable({ bundles, onOpen }: { bundles: BundleSummary[]; onOpen: (b: BundleRef) => void }) {
  const paged = usePaged(bundles)
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover withTableBorder aria-label="Release bundles received here">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Source</Table.Th>
              <Table.Th>Signature</Table.Th>
              <Table.Th>Received</Table.Th>
              <Table.Th ta="right">Files</Table.Th>
              <Table.Th ta="right">Size</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {paged.rows.map((b) => (
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
                <Table.Td style={{ overflowWrap: 'break-word' }}>
                  <SourceAddress value={b.sourceUrl} />
                </Table.Td>
                <Table.Td>
                  <VerifiedBadge verified={b.verified} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {when(b.createdAt)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{b.files}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatSize(b.size)}
                </Table.Td>
              </Table.Tr>
            ))}
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
