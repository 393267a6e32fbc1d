import { Alert, Button, Group, Modal, Progress, Stack, Text, TextInput } from '@mantine/core'
import { type DragEvent, useRef, useState } from 'react'
import { ApiError } from '../../../lib/api'
import { formatSize } from '../../../lib/format'
import { type NodeAddress, type Upload, uploadFile } from '../api/artifactsApi'

export interface DeployDialogProps {
  opened: boolean
  onClose: () => void
  /** Where the files go: a repository (path '') or a folder of it. */
  target: NodeAddress
  onDeployed: () => void
}

interface Item {
  file: File
  loaded: number
  state: 'waiting' | 'sending' | 'done' | 'failed' | 'cancelled'
  error?: string
  upload?: Upload
}

/** `name=v1,v2;other=v`: the properties every deployed file gets. */
export function propertiesError(text: string): string | null {
  if (!text.trim()) return null
  for (const part of text.split(';')) {
    const [name] = part.split('=')
    if (!name?.trim() || !/^[^=;,|\s]+$/.test(name.trim())) return 'Write properties as name=value;other=v1,v2'
  }
  return null
}

/**
 * Deploy: files dropped or picked, each sent with its own progress bar and cancel button, to the
 * target path (the selected folder, editable), with properties. A cancelled or interrupted upload
 * stores nothing.
 */
export function DeployDialog({ opened, onClose, target, onDeployed }: DeployDialogProps) {
  const [folder, setFolder] = useState(target.path)
  const [properties, setProperties] = useState('')
  const [items, setItems] = useState<Item[]>([])
  const [dragging, setDragging] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const busy = items.some((i) => i.state === 'sending' || i.state === 'waiting')
  const started = items.some((i) => i.state !== 'waiting')
  const propsError = propertiesError(properties)
  const folderError = folder.split('/').some((s) => s === '..' || s === '.') ? 'The path must not contain . or .. segments' : null

  const add = (files: FileList | null) => {
    if (!files) return
    setItems((old) => [
      ...old.filter((i) => i.state !== 'done'),
      ...Array.from(files).map((file) => ({ file, loaded: 0, state: 'waiting' as const })),
    ])
  }
  const patch = (file: File, change: Partial<Item>) =>
    setItems((old) => old.map((i) => (i.file === file ? { ...i, ...change } : i)))

  const deployAll = async () => {
    const base = folder.replace(/^\/+|\/+$/g, '')
    let any = false
    for (const item of items) {
      if (item.state !== 'waiting') continue
      const path = base ? `${base}/${item.file.name}` : item.file.name
      const upload = uploadFile({ repoKey: target.repoKey, path }, item.file, properties.trim(), (loaded) =>
        patch(item.file, { loaded }),
      )
      patch(item.file, { state: 'sending', upload })
      try {
        await upload.done
        patch(item.file, { state: 'done', loaded: item.file.size })
        any = true
      } catch (e) {
        if (e instanceof Error && e.message === 'aborted') patch(item.file, { state: 'cancelled' })
        else patch(item.file, { state: 'failed', error: e instanceof ApiError && e.message ? e.message : 'The upload failed' })
      }
    }
    if (any) onDeployed()
  }
  const close = () => {
    for (const i of items) i.upload?.cancel()
    setItems([])
    onClose()
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setDragging(false)
    add(e.dataTransfer.files)
  }

  return (
    <Modal opened={opened} onClose={close} title={`Deploy to ${target.repoKey}`} size="lg">
      <Stack>
        <TextInput
          label="Target path"
          description="The folder the files go to, inside the repository"
          value={folder}
          onChange={(e) => setFolder(e.currentTarget.value)}
          error={folderError}
          disabled={started && busy}
        />
        <TextInput
          label="Properties"
          description="name=value;other=v1,v2 — set on every file deployed"
          value={properties}
          onChange={(e) => setProperties(e.currentTarget.value)}
          error={propsError}
          disabled={started && busy}
        />
        <button
          type="button"
          aria-label="Drop files here or choose them"
          data-testid="deploy-dropzone"
          onDragOver={(e) => {
            e.preventDefault()
            setDragging(true)
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          onClick={() => input.current?.click()}
          style={{
            width: '100%',
            background: 'none',
            color: 'inherit',
            font: 'inherit',
            border: `2px dashed var(--mantine-color-${dragging ? 'blue-6' : 'default-border'})`,
            borderRadius: 8,
            padding: 24,
            textAlign: 'center',
            cursor: 'pointer',
          }}
        >
          <Text>Drop files here, or click to choose them</Text>
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label="Choose files"
          onChange={(e) => {
            add(e.currentTarget.files)
            e.currentTarget.value = ''
          }}
        />
        {items.length > 0 && (
          <Stack gap={6} aria-label="Files to deploy">
            {items.map((i) => (
              <div key={`${i.file.name}-${i.file.size}-${i.file.lastModified}`}>
                <Group justify="space-between" gap="xs">
                  <Text size="sm" truncate style={{ flex: 1 }}>
                    {i.file.name}{' '}
                    <Text span c="dimmed" size="xs">
                      {formatSize(i.file.size, '—')}
                    </Text>
                  </Text>
                  <Text size="xs" c={i.state === 'failed' ? 'red' : i.state === 'done' ? 'teal' : 'dimmed'}>
                    {i.state === 'failed'
                      ? i.error
                      : i.state === 'done'
                        ? 'Deployed'
                        : i.state === 'cancelled'
                          ? 'Cancelled'
                          : ''}
                  </Text>
                  {i.state === 'sending' && (
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => i.upload?.cancel()}>
                      Cancel
                    </Button>
                  )}
                </Group>
                <Progress
                  value={i.file.size ? (100 * i.loaded) / i.file.size : i.state === 'done' ? 100 : 0}
                  color={i.state === 'failed' || i.state === 'cancelled' ? 'red' : i.state === 'done' ? 'teal' : 'blue'}
                  aria-label={`Progress of ${i.file.name}`}
                  size="sm"
                />
              </div>
            ))}
          </Stack>
        )}
        {items.some((i) => i.state === 'failed') && <Alert color="red">Some files were not deployed.</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {items.length > 0 && !busy ? 'Close' : 'Cancel'}
          </Button>
          <Button
            onClick={() => void deployAll()}
            disabled={!items.some((i) => i.state === 'waiting') || !!propsError || !!folderError}
            loading={items.some((i) => i.state === 'sending')}
          >
            Deploy
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
