import { ActionIcon, Button, Checkbox, Fieldset, Group, NativeSelect, Stack, Table, TagsInput, TextInput } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import {
  ACTION_LABELS,
  ACTIONS,
  type Action,
  type Grant,
  type PermissionTarget,
  RESOURCE_KINDS,
  RESOURCE_LABELS,
  type ResourceKind,
} from '@trove/contracts/access'
import { type FormEvent, useEffect, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useMyAccess } from './api/myAccess'
import { useDeletePermission, usePermission, useSavePermission } from './api/permissions'
import { ErrorAlert } from './ErrorAlert'
import { nameError } from './validation'

type Section = NonNullable<PermissionTarget[ResourceKind]>
const emptySection = (): Section => ({ resources: { names: [], include: [], exclude: [] }, grants: [] })
const NAMES_LABEL: Record<ResourceKind, string> = {
  repositories: 'Repositories by name',
  builds: 'Builds by name',
  releaseBundles: 'Release bundles by name',
}

function GrantsTable({ kind, grants, onChange }: { kind: ResourceKind; grants: Grant[]; onChange: (grants: Grant[]) => void }) {
  const label = RESOURCE_LABELS[kind]
  const change = (i: number, grant: Partial<Grant>) => onChange(grants.map((g, j) => (j === i ? { ...g, ...grant } : g)))
  return (
    <Stack gap={4}>
      <Table withTableBorder aria-label={`${label} grants`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Who</Table.Th>
            <Table.Th>Name</Table.Th>
            {ACTIONS.map((a) => (
              <Table.Th key={a}>{ACTION_LABELS[a]}</Table.Th>
            ))}
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {grants.map((g, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while edited
            <Table.Tr key={i}>
              <Table.Td>
                <NativeSelect
                  aria-label={`${label} grant ${i + 1} kind`}
                  data={[
                    { value: 'user', label: 'User' },
                    { value: 'group', label: 'Group' },
                    { value: 'anonymous', label: 'Anonymous' },
                  ]}
                  value={g.kind}
                  onChange={(e) => change(i, { kind: e.currentTarget.value as Grant['kind'] })}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  aria-label={`${label} grant ${i + 1} name`}
                  disabled={g.kind === 'anonymous'}
                  value={g.kind === 'anonymous' ? '' : g.name}
                  onChange={(e) => change(i, { name: e.currentTarget.value })}
                />
              </Table.Td>
              {ACTIONS.map((a) => (
                <Table.Td key={a}>
                  <Checkbox
                    aria-label={`${label} grant ${i + 1} ${ACTION_LABELS[a]}`}
                    checked={g.actions.includes(a)}
                    onChange={(e) =>
                      change(i, {
                        actions: e.currentTarget.checked ? [...g.actions, a] : g.actions.filter((x: Action) => x !== a),
                      })
                    }
                  />
                </Table.Td>
              ))}
              <Table.Td>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${label} grant ${i + 1}`}
                  onClick={() => onChange(grants.filter((_, j) => j !== i))}
                >
                  ×
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group>
        <Button size="xs" variant="light" onClick={() => onChange([...grants, { kind: 'user', name: '', actions: ['read'] }])}>
          Add {label.toLowerCase()} grant
        </Button>
      </Group>
    </Stack>
  )
}

/** /admin/management/permissions/create and /admin/management/permissions/:name */
export function PermissionFormPage({ name }: { name?: string }) {
  const permission = usePermission(name ?? '')
  const save = useSavePermission()
  const remove = useDeletePermission()
  const navigate = useNavigate()
  const [target, setTarget] = useState<PermissionTarget>({
    name: '',
    repositories: emptySection(),
    builds: null,
    releaseBundles: null,
  })
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (permission.data) setTarget(permission.data)
  }, [permission.data])
  // A user who manages this permission (not an admin) changes its grants only: the rest is shown, locked.
  const locked = !useMyAccess().data?.admin
  const setSection = (kind: ResourceKind, section: Section | null) => setTarget((t) => ({ ...t, [kind]: section }))
  const back = () => navigate({ to: locked ? '/' : '/admin/management/permissions' })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = nameError(target.name)
    setError(problem)
    if (problem) return
    await save.mutateAsync({ original: name, target })
    await back()
  }
  return (
    <>
      <PageHeader
        title={name ? `Edit permission ${name}` : 'New permission'}
        breadcrumbs={['Administration', 'User Management', 'Permissions']}
      />
      <AccessNav active="Permissions" />
      <ErrorAlert error={save.error ?? remove.error ?? (name ? permission.error : null)} />
      <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
        <Stack gap="md">
          <TextInput
            label="Permission name"
            required
            maw={520}
            disabled={locked}
            value={target.name}
            error={error}
            onChange={(e) => setTarget({ ...target, name: e.currentTarget.value })}
          />
          {RESOURCE_KINDS.map((kind) => {
            const section = target[kind]
            return (
              <Fieldset key={kind} legend={RESOURCE_LABELS[kind]}>
                <Checkbox
                  label={`Apply to ${RESOURCE_LABELS[kind].toLowerCase()}`}
                  checked={Boolean(section)}
                  disabled={locked}
                  onChange={(e) => setSection(kind, e.currentTarget.checked ? emptySection() : null)}
                  mb="sm"
                />
                {section && (
                  <Stack gap="sm">
                    <Group grow align="start">
                      <TagsInput
                        label={NAMES_LABEL[kind]}
                        disabled={locked}
                        value={section.resources.names}
                        onChange={(names) => setSection(kind, { ...section, resources: { ...section.resources, names } })}
                      />
                      <TagsInput
                        label={`${RESOURCE_LABELS[kind]}: include patterns`}
                        disabled={locked}
                        description="** matches anything, * within a segment"
                        value={section.resources.include}
                        onChange={(include) => setSection(kind, { ...section, resources: { ...section.resources, include } })}
                      />
                      <TagsInput
                        label={`${RESOURCE_LABELS[kind]}: exclude patterns`}
                        disabled={locked}
                        value={section.resources.exclude}
                        onChange={(exclude) => setSection(kind, { ...section, resources: { ...section.resources, exclude } })}
                      />
                    </Group>
                    <GrantsTable
                      kind={kind}
                      grants={section.grants}
                      onChange={(grants) => setSection(kind, { ...section, grants })}
                    />
                  </Stack>
                )}
              </Fieldset>
            )
          })}
          <Group>
            <Button type="submit" loading={save.isPending}>
              {name ? 'Save' : 'Create permission'}
            </Button>
            <Button variant="default" onClick={() => void back()}>
              Cancel
            </Button>
            {name && !locked && (
              <Button
                color="red"
                variant="light"
                onClick={() => {
                  if (window.confirm(`Delete permission ${name}?`)) void remove.mutateAsync(name).then(back, () => {})
                }}
              >
                Delete permission
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </>
  )
}
