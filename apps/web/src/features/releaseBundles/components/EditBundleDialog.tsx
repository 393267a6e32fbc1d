import { Alert, Button, Group, Input, Modal, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core'
import type { BundleDetails, BundleFile } from '@trove/contracts/distribution'
import { format } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { type ComponentType, type FormEvent, useState } from 'react'
import { formatSize } from '../../../lib/format'
import { notify } from '../../../lib/notify'
import { useUpdateBundle } from '../api/updateBundle'
import {
  type DraftErrors,
  type EditDraft,
  editDraftOf,
  hasErrors,
  noErrors,
  type SourceDraft,
  serverErrors,
  toUpdateBundle,
  validateEdit,
} from '../bundleForm'
import { ReleaseNotesField } from './ReleaseNotesField'
import type { RepositoryOption } from './SourceFields'
import { SourceList } from './SourceList'

export interface EditBundleDialogProps {
  /** The open bundle to change; null keeps the dialog closed */
  bundle: BundleDetails | null
  onClose: () => void
  repositories: RepositoryOption[]
  Markdown: ComponentType<{ text: string }>
}

/** An open bundle's changes: its description and notes, files added from sources, files left out. */
export function EditBundleDialog({ bundle, onClose, repositories, Markdown }: EditBundleDialogProps) {
  return (
    <Modal
      opened={bundle !== null}
      onClose={onClose}
      title={bundle ? `Edit ${bundle.name} ${bundle.version}` : 'Edit'}
      size="xl"
      zIndex={400}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {bundle && <EditBundleForm bundle={bundle} onClose={onClose} repositories={repositories} Markdown={Markdown} />}
    </Modal>
  )
}

function EditBundleForm({
  bundle,
  onClose,
  repositories,
  Markdown,
}: Omit<EditBundleDialogProps, 'bundle'> & { bundle: BundleDetails }) {
  const update = useUpdateBundle()
  // The texts as they were when the dialog opened: only what the user changed since is sent.
  const [initial] = useState(() => editDraftOf(bundle))
  const [draft, setDraft] = useState<EditDraft>(initial)
  const [submitted, setSubmitted] = useState(false)
  const [server, setServer] = useState<DraftErrors>(noErrors)
  const local = validateEdit(draft)
  const fieldError = (f: keyof DraftErrors['fields']) => server.fields[f]
  const sourceErrors = (i: number) => ({ ...(submitted ? local.sources[i] : {}), ...server.sources[i] })

  const changeText = (key: 'description' | 'releaseNotes', value: string) => {
    setDraft((d) => ({ ...d, [key]: value }))
    setServer((s) => ({ ...s, fields: { ...s.fields, [key]: undefined } }))
  }
  const changeSources = (add: SourceDraft[], sameIndexes: boolean) => {
    setDraft((d) => ({ ...d, add }))
    // The server's refusals name sources by index: once one goes, they no longer line up.
    setServer((s) => ({ ...s, fields: { ...s.fields, sources: undefined }, sources: sameIndexes ? s.sources : {} }))
  }
  const toggle = (address: string) =>
    setDraft((d) => ({
      ...d,
      remove: d.remove.includes(address) ? d.remove.filter((a) => a !== address) : [...d.remove, address],
    }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (hasErrors(local)) return
    const changes = toUpdateBundle(draft, initial)
    if (!changes) {
      onClose()
      return
    }
    setServer(noErrors())
    const names = { name: bundle.name, version: bundle.version }
    update.mutate(
      { ...names, ...changes },
      {
        onSuccess: () => {
          notify({ color: 'green', message: format(ReleaseBundleMessages.bundleUpdated, names) })
          onClose()
        },
        onError: (error) => setServer(serverErrors(error, 'add')),
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Description"
          data-autofocus
          value={draft.description}
          error={fieldError('description')}
          maxLength={1000}
          onChange={(e) => changeText('description', e.currentTarget.value)}
        />
        <ReleaseNotesField
          value={draft.releaseNotes}
          error={fieldError('releaseNotes')}
          onChange={(v) => changeText('releaseNotes', v)}
          Markdown={Markdown}
        />
        <FilesToLeaveOut files={bundle.contents} removed={draft.remove} onToggle={toggle} />
        <SourceList
          title="Add files"
          sources={draft.add}
          error={fieldError('sources')}
          hint="Package versions, tree paths, a build’s artifacts or a query: their files are added to the bundle."
          errorsOf={sourceErrors}
          repositories={repositories}
          onAdd={(source) => changeSources([...draft.add, source], true)}
          onChange={(i, next) =>
            changeSources(
              draft.add.map((s, j) => (j === i ? next : s)),
              true,
            )
          }
          onRemove={(i) =>
            changeSources(
              draft.add.filter((_, j) => j !== i),
              false,
            )
          }
        />
        {server.other && (
          <Alert color="red" variant="light" role="alert">
            {server.other}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

const addressOf = (f: BundleFile) => `${f.repoKey}/${f.path}`

/** The bundle's files, each of which may be left out (and kept again) before saving. */
function FilesToLeaveOut({
  files,
  removed,
  onToggle,
}: {
  files: BundleFile[]
  removed: string[]
  onToggle: (address: string) => void
}) {
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Input.Label component="h3" m={0}>
          Files ({files.length})
        </Input.Label>
        {removed.length > 0 && (
          <Text size="xs" c="dimmed">
            {removed.length} to leave out
          </Text>
        )}
      </Group>
      {files.length === 0 ? (
        <Text size="sm" c="dimmed">
          No files yet: add some from the sources below.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars="present">
          <Table withTableBorder verticalSpacing={4} aria-label="Files in the bundle">
            <Table.Tbody>
              {files.map((f) => {
                const address = addressOf(f)
                const out = removed.includes(address)
                return (
                  <Table.Tr key={address}>
                    <Table.Td
                      style={{ overflowWrap: 'anywhere', textDecoration: out ? 'line-through' : undefined }}
                      c={out ? 'dimmed' : undefined}
                    >
                      <Text span size="sm" c="dimmed">
                        {f.repoKey}/
                      </Text>
                      <Text span size="sm" c={out ? 'dimmed' : undefined}>
                        {f.path}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      <Text span size="sm" c="dimmed">
                        {formatSize(f.size)}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right" w={110}>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color={out ? 'gray' : 'red'}
                        aria-label={`${out ? 'Keep' : 'Leave out'} ${address}`}
                        onClick={() => onToggle(address)}
                      >
                        {out ? 'Keep' : 'Leave out'}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                )
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Stack>
  )
}
