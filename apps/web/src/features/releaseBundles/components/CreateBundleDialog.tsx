import { Alert, Button, Group, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core'
import type { BundleDetails } from '@trove/contracts/distribution'
import { format } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { type ComponentType, type FormEvent, useState } from 'react'
import { notify } from '../../../lib/notify'
import { useCreateBundle } from '../api/createBundle'
import {
  type BundleDraft,
  type DraftErrors,
  emptyDraft,
  hasErrors,
  noErrors,
  type SourceDraft,
  serverErrors,
  toCreateBundle,
  validateDraft,
} from '../bundleForm'
import { ReleaseNotesField } from './ReleaseNotesField'
import type { RepositoryOption } from './SourceFields'
import { SourceList } from './SourceList'

export interface CreateBundleDialogProps {
  opened: boolean
  onClose: () => void
  /** Called with the new bundle (the list opens it) */
  onCreated: (bundle: BundleDetails) => void
  repositories: RepositoryOption[]
  Markdown: ComponentType<{ text: string }>
}

/** A new, open release bundle: its name and version, notes, and the sources its files come from. */
export function CreateBundleDialog({ opened, onClose, onCreated, repositories, Markdown }: CreateBundleDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="New release bundle" size="xl" closeButtonProps={{ 'aria-label': 'Close' }}>
      {opened && <CreateBundleForm onClose={onClose} onCreated={onCreated} repositories={repositories} Markdown={Markdown} />}
    </Modal>
  )
}

function CreateBundleForm({ onClose, onCreated, repositories, Markdown }: Omit<CreateBundleDialogProps, 'opened'>) {
  const create = useCreateBundle()
  const [draft, setDraft] = useState<BundleDraft>(emptyDraft)
  const [submitted, setSubmitted] = useState(false)
  const [server, setServer] = useState<DraftErrors>(noErrors)
  const local = validateDraft(draft)
  const fieldError = (f: keyof DraftErrors['fields']) => server.fields[f] ?? (submitted ? local.fields[f] : undefined)
  const sourceErrors = (i: number) => ({ ...(submitted ? local.sources[i] : {}), ...server.sources[i] })

  const change = <K extends keyof BundleDraft>(key: K, value: BundleDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }))
    if (key in server.fields) setServer((s) => ({ ...s, fields: { ...s.fields, [key]: undefined } }))
  }
  const changeSource = (i: number, next: SourceDraft) => {
    change(
      'sources',
      draft.sources.map((s, j) => (j === i ? next : s)),
    )
    setServer((s) => ({ ...s, sources: { ...s.sources, [i]: {} } }))
  }
  const removeSource = (i: number) => {
    change(
      'sources',
      draft.sources.filter((_, j) => j !== i),
    )
    // The server's refusals name sources by index: once one goes, they no longer line up.
    setServer((s) => ({ ...s, sources: {} }))
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (hasErrors(local)) return
    setServer(noErrors())
    create.mutate(toCreateBundle(draft), {
      onSuccess: (bundle) => {
        notify({
          color: 'green',
          message: format(ReleaseBundleMessages.bundleCreated, { name: bundle.name, version: bundle.version }),
        })
        onCreated(bundle)
        onClose()
      },
      onError: (error) => setServer(serverErrors(error)),
    })
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Name"
            withAsterisk
            data-autofocus
            value={draft.name}
            error={fieldError('name')}
            onChange={(e) => change('name', e.currentTarget.value)}
          />
          <TextInput
            label="Version"
            withAsterisk
            value={draft.version}
            error={fieldError('version')}
            onChange={(e) => change('version', e.currentTarget.value)}
          />
        </SimpleGrid>
        <TextInput
          label="Description"
          value={draft.description}
          error={fieldError('description')}
          maxLength={1000}
          onChange={(e) => change('description', e.currentTarget.value)}
        />
        <ReleaseNotesField
          value={draft.releaseNotes}
          error={fieldError('releaseNotes')}
          onChange={(v) => change('releaseNotes', v)}
          Markdown={Markdown}
        />
        <SourceList
          title="Sources"
          sources={draft.sources}
          error={fieldError('sources')}
          hint="Package versions, tree paths, a build’s artifacts or a query: their files go into the bundle."
          errorsOf={sourceErrors}
          repositories={repositories}
          onAdd={(source) => change('sources', [...draft.sources, source])}
          onChange={changeSource}
          onRemove={removeSource}
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
          <Button type="submit" loading={create.isPending}>
            Create
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
