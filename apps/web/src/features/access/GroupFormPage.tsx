import { Button, Checkbox, Group, Stack, Textarea, TextInput } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useEffect, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useDeleteGroup, useGroup, useSaveGroup } from './api/groups'
import { ErrorAlert } from './ErrorAlert'
import { UserPicker } from './UserPicker'
import { nameError } from './validation'

/** /admin/management/groups/new and /admin/management/groups/:name */
export function GroupFormPage({ name }: { name?: string }) {
  const group = useGroup(name ?? '')
  const save = useSaveGroup()
  const remove = useDeleteGroup()
  const navigate = useNavigate()
  const [form, setForm] = useState({
    name: '',
    description: '',
    autoJoin: false,
    adminPrivileges: false,
    members: [] as string[],
  })
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (group.data) setForm(group.data)
  }, [group.data])
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }))
  const back = () => navigate({ to: '/admin/management/groups' })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = nameError(form.name)
    setError(problem)
    if (problem) return
    await save.mutateAsync({ original: name, group: form })
    await back()
  }
  return (
    <>
      <PageHeader
        title={name ? `Edit group ${name}` : 'New group'}
        breadcrumbs={['Administration', 'User Management', 'Groups']}
      />
      <AccessNav active="Groups" />
      <ErrorAlert error={save.error ?? remove.error ?? (name ? group.error : null)} />
      <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
        <Stack maw={520} gap="sm">
          <TextInput
            label="Group name"
            required
            value={form.name}
            error={error}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
          <Textarea label="Description" value={form.description} onChange={(e) => set('description', e.currentTarget.value)} />
          <Checkbox
            label="Automatically join new users to this group"
            checked={form.autoJoin}
            onChange={(e) => set('autoJoin', e.currentTarget.checked)}
          />
          <Checkbox
            label="Admin privileges (members are administrators)"
            checked={form.adminPrivileges}
            onChange={(e) => set('adminPrivileges', e.currentTarget.checked)}
          />
          <UserPicker label="Members" value={form.members} onChange={(members) => set('members', members)} />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {name ? 'Save' : 'Create group'}
            </Button>
            <Button variant="default" onClick={() => void back()}>
              Cancel
            </Button>
            {name && (
              <Button
                color="red"
                variant="light"
                onClick={() => {
                  if (window.confirm(`Delete group ${name}?`)) void remove.mutateAsync(name).then(back, () => {})
                }}
              >
                Delete group
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </>
  )
}
