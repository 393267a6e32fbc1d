import { Alert, Button, Divider, Drawer, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core'
import type { BundleDetails } from '@trove/contracts/distribution'
import { format, Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { type ComponentType, type ReactNode, useState } from 'react'
import { formatSize } from '../../../lib/format'
import { notify } from '../../../lib/notify'
import { useBundleDetails } from '../api/bundleDetails'
import { useDeleteBundle } from '../api/deleteBundle'
import type { BundleOrigin } from '../api/listBundles'
import { useRecallBundle } from '../api/recallBundle'
import { useRemoveFromTarget } from '../api/removeFromTarget'
import { useSignBundle } from '../api/signBundle'
import { when } from '../when'
import { BundleStateBadge, VerifiedBadge } from './Badges'
import { ConfirmDialog } from './ConfirmDialog'
import { ContentsTable } from './ContentsTable'
import { DistributeDialog } from './DistributeDialog'
import { DistributionsTable } from './DistributionsTable'
import { EditBundleDialog } from './EditBundleDialog'
import { SourceAddress } from './SourceAddress'
import type { RepositoryOption } from './SourceFields'

export interface BundleRef {
  name: string
  version: string
}

export interface BundleDrawerProps {
  origin: BundleOrigin
  /** The bundle shown; null keeps the drawer closed */
  bundle: BundleRef | null
  onClose: () => void
  /** Renders release notes (the console's markdown renderer, composed in by the screen) */
  Markdown: ComponentType<{ text: string }>
  /** Repositories the sources added to an open bundle may name */
  repositories: RepositoryOption[]
}

/** A bundle's details, in a drawer over its list. */
export function BundleDrawer({ origin, bundle, onClose, Markdown, repositories }: BundleDrawerProps) {
  return (
    <Drawer
      opened={bundle !== null}
      onClose={onClose}
      position="right"
      closeButtonProps={{ 'aria-label': 'Close' }}
      size="min(64rem, 100%)"
      title={
        // The drawer's title is already its heading (an h2): only its size is set here.
        bundle && (
          <Text span inherit fz="h3" fw={700}>
            {bundle.name}{' '}
            <Text span inherit c="dimmed" fw={400}>
              {bundle.version}
            </Text>
          </Text>
        )
      }
    >
      {bundle && (
        <BundleBody
          key={`${origin}\u0000${bundle.name}\u0000${bundle.version}`}
          origin={origin}
          bundle={bundle}
          onGone={onClose}
          Markdown={Markdown}
          repositories={repositories}
        />
      )}
    </Drawer>
  )
}

type Confirm = { kind: 'delete' } | { kind: 'recall' } | { kind: 'remove'; target: string }

function BundleBody({
  origin,
  bundle,
  onGone,
  Markdown,
  repositories,
}: Omit<BundleDrawerProps, 'bundle' | 'onClose'> & { bundle: BundleRef; onGone: () => void }) {
  const details = useBundleDetails(origin, bundle.name, bundle.version)
  const sign = useSignBundle()
  const remove = useDeleteBundle()
  const recall = useRecallBundle()
  const removeFrom = useRemoveFromTarget()
  const [distributing, setDistributing] = useState(false)
  const [editing, setEditing] = useState(false)
  const [confirm, setConfirm] = useState<Confirm | null>(null)
  const failed = (error: Error) => notify({ color: 'red', message: error.message || Messages.somethingWentWrong })

  if (details.isPending) return <Loader size="sm" aria-label="Loading the bundle" />
  if (details.error)
    return (
      <Alert color="red" variant="light" role="alert">
        {details.error.message || Messages.somethingWentWrong}
      </Alert>
    )
  const b: BundleDetails = details.data
  const names = { name: b.name, version: b.version }
  const live = b.distributions.filter((d) => d.state !== 'deleted')

  const onSign = () =>
    sign.mutate(names, {
      onSuccess: () => notify({ color: 'green', message: format(ReleaseBundleMessages.bundleSigned, names) }),
      onError: failed,
    })
  const closeConfirm = () => setConfirm(null)
  const confirmFailed = (error: Error) => {
    failed(error)
    closeConfirm()
  }
  const onConfirm = () => {
    if (!confirm) return
    if (confirm.kind === 'delete')
      remove.mutate(
        { origin, ...names },
        {
          onSuccess: () => {
            notify({ color: 'green', message: format(ReleaseBundleMessages.bundleDeleted, names) })
            closeConfirm()
            onGone()
          },
          onError: confirmFailed,
        },
      )
    else if (confirm.kind === 'recall')
      recall.mutate(names, {
        onSuccess: () => {
          notify({ color: 'green', message: format(ReleaseBundleMessages.bundleRecalling, names) })
          closeConfirm()
        },
        onError: confirmFailed,
      })
    else
      removeFrom.mutate(
        { ...names, target: confirm.target },
        {
          onSuccess: () => {
            notify({
              color: 'green',
              message: format(ReleaseBundleMessages.bundleRemoving, { ...names, target: confirm.target }),
            })
            closeConfirm()
          },
          onError: confirmFailed,
        },
      )
  }
  const confirmText =
    confirm?.kind === 'delete'
      ? format(
          origin === 'source' ? ReleaseBundleMessages.bundleDeleteConfirm : ReleaseBundleMessages.bundleDeleteReceivedConfirm,
          names,
        )
      : confirm?.kind === 'recall'
        ? format(ReleaseBundleMessages.bundleRecallConfirm, names)
        : confirm?.kind === 'remove'
          ? format(ReleaseBundleMessages.bundleRemoveConfirm, { ...names, target: confirm.target })
          : null

  return (
    <Stack gap="lg">
      {/* The actions stay at the left: notifications appear at the top right, over the drawer's corner. */}
      <Stack gap="sm">
        <Group gap="xs">
          <BundleStateBadge state={b.state} />
          {origin === 'target' && <VerifiedBadge verified={b.verified} />}
          <Text size="sm" c="dimmed">
            {b.files} {b.files === 1 ? 'file' : 'files'}, {formatSize(b.size)}
          </Text>
        </Group>
        <Group gap="xs">
          {origin === 'source' && b.state === 'open' && (
            <>
              <Button size="sm" onClick={onSign} loading={sign.isPending}>
                Sign
              </Button>
              <Button size="sm" variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
            </>
          )}
          {origin === 'source' && b.state !== 'open' && (
            <Button size="sm" onClick={() => setDistributing(true)}>
              Distribute
            </Button>
          )}
          {origin === 'source' && live.length > 0 && (
            <Button size="sm" variant="default" onClick={() => setConfirm({ kind: 'recall' })} loading={recall.isPending}>
              Recall everywhere
            </Button>
          )}
          <Button size="sm" variant="light" color="red" onClick={() => setConfirm({ kind: 'delete' })} loading={remove.isPending}>
            Delete
          </Button>
        </Group>
      </Stack>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4}>
        <Fact label={origin === 'source' ? 'Created' : 'Received'}>
          {when(b.createdAt)}
          {origin === 'source' && b.createdBy ? ` by ${b.createdBy}` : ''}
        </Fact>
        {origin === 'target' && (
          <Fact label="Source">
            <SourceAddress value={b.sourceUrl} />
          </Fact>
        )}
        <Fact label="Signed">{b.signedAt ? when(b.signedAt) : '—'}</Fact>
        <Fact label="Key id">
          <Text span ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
            {b.keyId ?? '—'}
          </Text>
        </Fact>
      </SimpleGrid>
      {b.state === 'open' && (
        <Text size="sm" c="dimmed">
          {ReleaseBundleMessages.bundleNotSigned}
        </Text>
      )}

      {b.description && <Text>{b.description}</Text>}
      {b.releaseNotes && (
        <section aria-label="Release notes">
          <Divider label="Release notes" labelPosition="left" mb="xs" />
          <Markdown text={b.releaseNotes} />
        </section>
      )}

      {origin === 'source' && (
        <section aria-label="Distributions">
          <Divider label="Distributions" labelPosition="left" mb="xs" />
          <DistributionsTable
            distributions={b.distributions}
            removing={removeFrom.isPending ? (removeFrom.variables?.target ?? null) : null}
            onRemove={(target) => setConfirm({ kind: 'remove', target })}
          />
        </section>
      )}

      <section aria-label="Contents">
        <Divider label={`Contents (${b.contents.length})`} labelPosition="left" mb="xs" />
        <ContentsTable files={b.contents} />
      </section>

      <DistributeDialog bundle={distributing ? names : null} onClose={() => setDistributing(false)} />
      <EditBundleDialog
        bundle={editing && b.state === 'open' ? b : null}
        onClose={() => setEditing(false)}
        repositories={repositories}
        Markdown={Markdown}
      />
      <ConfirmDialog
        title={confirm?.kind === 'delete' ? 'Delete release bundle' : 'Remove release bundle'}
        confirmLabel={confirm?.kind === 'delete' ? 'Delete' : 'Remove'}
        message={confirmText}
        pending={remove.isPending || recall.isPending || removeFrom.isPending}
        onClose={closeConfirm}
        onConfirm={onConfirm}
      />
    </Stack>
  )
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" w={72} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  )
}
