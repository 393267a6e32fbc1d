import { Alert, Button, Group, Input, Modal, SimpleGrid, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core'
import type { BundleDetails } from '@trove/contracts/distribution'
import { format, ScreenMessages } from '@trove/contracts/messages'
import { type ComponentType, type FormEvent, useId, useState } from 'react'
import { notify } from '../../../lib/notify'
import { useCreateBundle } from '../api/createBundle'
import {
  type BundleDraft,
  type DraftErrors,
  emptyDraft,
  hasErrors,
  newSource,
  noErrors,
  type SourceDraft,
  type SourceType,
  serverErrors,
  toCreateBundle,
  validateDraft,
} from '../bundleForm'
import { type RepositoryOption, SOURCE_TYPE_LABELS, SourceFields } from './SourceFields'

export interface CreateBundleDialogProps {
  opened: boolean
  onClose: () => void
  /** Called with the new bundle (the list opens it) */
  onCreated: (bundle: BundleDetails) => void
  repositories: RepositoryOption[]
  Markdown: ComponentType<{ text: string }>
}

const SOURCE_TYPES: SourceType[] = ['version', 'path', 'build', 'query']

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
  const [notesTab, setNotesTab] = useState<string | null>('write')
  const notesId = useId()
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
        notify({ color: 'green', message: format(ScreenMessages.bundleCreated, { name: bundle.name, version: bundle.version }) })
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
        <Stack gap={4}>
          <Input.Label htmlFor={notesId}>Release notes</Input.Label>
          <Tabs value={notesTab} onChange={setNotesTab} variant="outline">
            <Tabs.List>
              <Tabs.Tab value="write">Write</Tabs.Tab>
              <Tabs.Tab value="preview" disabled={!draft.releaseNotes.trim()}>
                Preview
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="write" pt="xs">
              <Textarea
                id={notesId}
                description="Markdown"
                autosize
                minRows={4}
                maxRows={14}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                value={draft.releaseNotes}
                error={fieldError('releaseNotes')}
                onChange={(e) => change('releaseNotes', e.currentTarget.value)}
              />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="xs" mih={80}>
              <Markdown text={draft.releaseNotes} />
            </Tabs.Panel>
          </Tabs>
        </Stack>

        <Stack gap="xs">
          <Group justify="space-between">
            <Input.Label component="h3" m={0}>
              Sources
            </Input.Label>
            <Group gap={6}>
              <Text size="xs" c="dimmed">
                Add
              </Text>
              {SOURCE_TYPES.map((t) => (
                <Button
                  key={t}
                  variant="light"
                  size="compact-xs"
                  aria-label={`Add ${SOURCE_TYPE_LABELS[t].toLowerCase()}`}
                  onClick={() => change('sources', [...draft.sources, newSource(t)])}
                >
                  + {SOURCE_TYPE_LABELS[t]}
                </Button>
              ))}
            </Group>
          </Group>
          {draft.sources.length === 0 && (
            <Text size="sm" c={fieldError('sources') ? 'red' : 'dimmed'} role={fieldError('sources') ? 'alert' : undefined}>
              {fieldError('sources') ??
                'Package versions, tree paths, a build’s artifacts or a query: their files go into the bundle.'}
            </Text>
          )}
          {draft.sources.map((s, i) => (
            <SourceFields
              key={s.id}
              source={s}
              index={i}
              errors={sourceErrors(i)}
              repositories={repositories}
              onChange={(next) => changeSource(i, next)}
              onRemove={() => removeSource(i)}
            />
          ))}
        </Stack>

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
