import {
  Alert,
  Button,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import type { RepositoryConfig, RepositoryConfigInput } from '@trove/contracts/repositories'
import {
  PACKAGE_TYPE_OPTIONS,
  type PackageTypeName,
  REPO_KEY_MAX,
  REPO_KEY_PATTERN,
  type RepoClassName,
} from '@trove/contracts/repositoryConstants'
import { type FormEvent, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { useRepositories } from './api/listRepositories'
import { useRepositoryConfig } from './api/repositoryConfig'
import { useSaveRepository } from './api/saveRepository'

const TITLES: Record<RepoClassName, string> = { local: 'Local', remote: 'Remote', virtual: 'Virtual' }

export function validateKey(key: string): string | null {
  if (!key.trim()) return Messages.fieldMandatory
  if (!REPO_KEY_PATTERN.test(key) || key.length > REPO_KEY_MAX) return Messages.invalidName
  return null
}

export function validateUrl(url: string): string | null {
  if (!url.trim()) return Messages.fieldMandatory
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? null : Messages.invalidUrl
  } catch {
    return Messages.invalidUrl
  }
}

export interface RepositoryFormProps {
  rclass: RepoClassName
  /** Set when editing an existing repository. */
  editKey?: string
  onDone: () => void
}

/** /admin/repositories/{local|remote|virtual}/new and the edit screen of an existing repository. */
export function RepositoryForm({ rclass, editKey, onDone }: RepositoryFormProps) {
  const existing = useRepositoryConfig(editKey)
  if (editKey && !existing.data) {
    return existing.error ? (
      <Alert color="red" role="alert">
        {existing.error.message || Messages.somethingWentWrong}
      </Alert>
    ) : null
  }
  return <RepositoryFormFields rclass={existing.data?.rclass ?? rclass} initial={existing.data} onDone={onDone} />
}

function RepositoryFormFields({
  rclass,
  initial,
  onDone,
}: {
  rclass: RepoClassName
  initial: RepositoryConfig | undefined
  onDone: () => void
}) {
  const editing = initial !== undefined
  const save = useSaveRepository(editing ? 'update' : 'create')
  const all = useRepositories()
  const [key, setKey] = useState(initial?.key ?? '')
  const [packageType, setPackageType] = useState<PackageTypeName>(initial?.packageType ?? 'npm')
  const [description, setDescription] = useState(initial?.description ?? '')
  const [notes, setNotes] = useState(initial?.notes ?? '')
  const [url, setUrl] = useState(initial?.url ?? '')
  const [username, setUsername] = useState(initial?.username ?? '')
  const [password, setPassword] = useState('')
  const [offline, setOffline] = useState(initial?.offline ?? false)
  const [metadataSecs, setMetadataSecs] = useState<number>(initial?.retrievalCachePeriodSecs ?? 600)
  const [missedSecs, setMissedSecs] = useState<number>(initial?.missedRetrievalCachePeriodSecs ?? 1800)
  const [artifactHours, setArtifactHours] = useState<number>(initial?.unusedArtifactsCleanupPeriodHours ?? 0)
  const [members, setMembers] = useState<string[]>(initial?.repositories ?? [])
  const [deployTo, setDeployTo] = useState<string | null>(initial?.defaultDeploymentRepo || null)
  const [errors, setErrors] = useState<Record<string, string | null>>({})

  const candidates = (all.data ?? []).filter(
    (r) => r.packageType.toLowerCase() === packageType && r.type !== 'VIRTUAL' && r.key !== key,
  )
  const locals = new Set(candidates.filter((r) => r.type === 'LOCAL').map((r) => r.key))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const next: Record<string, string | null> = { key: validateKey(key) }
    if (rclass === 'remote') next.url = validateUrl(url)
    setErrors(next)
    if (Object.values(next).some(Boolean)) return
    const config: RepositoryConfigInput = { rclass, packageType, description, notes }
    if (rclass === 'remote') {
      Object.assign(config, {
        url,
        username,
        offline,
        retrievalCachePeriodSecs: metadataSecs,
        missedRetrievalCachePeriodSecs: missedSecs,
        unusedArtifactsCleanupPeriodHours: artifactHours,
        ...(password || !editing ? { password } : {}),
      })
    }
    if (rclass === 'virtual') Object.assign(config, { repositories: members, defaultDeploymentRepo: deployTo ?? '' })
    save.mutate({ key, config }, { onSuccess: onDone })
  }

  return (
    <form onSubmit={submit} noValidate>
      <PageHeader
        title={editing ? `Edit ${TITLES[rclass]} Repository ${initial.key}` : `New ${TITLES[rclass]} Repository`}
        breadcrumbs={['Administration', 'Repositories', TITLES[rclass]]}
      />
      <Stack maw={640}>
        {save.error && (
          <Alert color="red" variant="light" role="alert">
            {save.error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        <NativeSelect
          label="Package type"
          data={PACKAGE_TYPE_OPTIONS}
          value={packageType}
          disabled={editing}
          onChange={(e) => {
            setPackageType(e.currentTarget.value as PackageTypeName)
            setMembers([])
            setDeployTo(null)
          }}
        />
        <TextInput
          label="Repository key"
          required
          value={key}
          disabled={editing}
          error={errors.key}
          onChange={(e) => setKey(e.currentTarget.value)}
        />
        {rclass === 'remote' && (
          <>
            <TextInput label="URL" required value={url} error={errors.url} onChange={(e) => setUrl(e.currentTarget.value)} />
            <Group grow>
              <TextInput label="User name" value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
              <PasswordInput
                label="Password / access token"
                placeholder={initial?.hasPassword ? 'unchanged' : ''}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
            </Group>
            <Switch label="Offline" checked={offline} onChange={(e) => setOffline(e.currentTarget.checked)} />
            <Group grow>
              <NumberInput
                label="Metadata cache (seconds)"
                min={0}
                value={metadataSecs}
                onChange={(v) => setMetadataSecs(Number(v) || 0)}
              />
              <NumberInput
                label="Missed retrieval cache (seconds)"
                min={0}
                value={missedSecs}
                onChange={(v) => setMissedSecs(Number(v) || 0)}
              />
              <NumberInput
                label="Unused artifacts kept (hours, 0: always)"
                min={0}
                value={artifactHours}
                onChange={(v) => setArtifactHours(Number(v) || 0)}
              />
            </Group>
          </>
        )}
        {rclass === 'virtual' && (
          <>
            <MultiSelect
              label="Repositories (resolved in this order)"
              data={candidates.map((r) => r.key)}
              value={members}
              onChange={(v) => {
                setMembers(v)
                if (deployTo && !v.includes(deployTo)) setDeployTo(null)
              }}
              searchable
            />
            <Select
              label="Default deployment repository"
              data={members.filter((m) => locals.has(m))}
              value={deployTo}
              onChange={setDeployTo}
              clearable
            />
          </>
        )}
        <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Textarea label="Notes" value={notes} rows={3} onChange={(e) => setNotes(e.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {editing ? 'Save' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
