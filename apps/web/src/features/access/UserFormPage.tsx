import { Button, Checkbox, Group, MultiSelect, PasswordInput, Stack, TextInput, Title, Tooltip } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { AccessMessages } from '@trove/contracts/access'
import { PASSWORD_MIN_LENGTH } from '@trove/contracts/limits'
import { type FormEvent, useEffect, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useGroups } from './api/groups'
import { useMyAccess } from './api/myAccess'
import { useCreateUser, useDeleteUser, useResetPassword, useSignInLock, useUnlockUser, useUpdateUser, useUser } from './api/users'
import { ErrorAlert } from './ErrorAlert'
import { nameError } from './validation'

const passwordError = (p: string) =>
  p.length < PASSWORD_MIN_LENGTH ? `A password has at least ${PASSWORD_MIN_LENGTH} characters` : null

/** /admin/management/users/new and /admin/management/users/:name */
export function UserFormPage({ name }: { name?: string }) {
  const editing = Boolean(name)
  const user = useUser(name ?? '')
  const groups = useGroups()
  const me = useMyAccess().data
  const create = useCreateUser()
  const update = useUpdateUser()
  const remove = useDeleteUser()
  const reset = useResetPassword()
  const lock = useSignInLock(name ?? '')
  const unlock = useUnlockUser()
  const navigate = useNavigate()
  const [form, setForm] = useState({
    name: '',
    email: '',
    password: '',
    admin: false,
    disabled: false,
    mfaRequired: false,
    groups: [] as string[],
  })
  const [errors, setErrors] = useState<Record<string, string | null>>({})
  const [newPassword, setNewPassword] = useState('')
  const [passwordDone, setPasswordDone] = useState(false)
  const loaded = user.data
  useEffect(() => {
    if (loaded)
      setForm({
        name: loaded.name,
        email: loaded.email ?? '',
        password: '',
        admin: loaded.admin,
        disabled: loaded.disabled,
        mfaRequired: loaded.mfaRequired,
        groups: loaded.groups,
      })
  }, [loaded])
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }))
  const back = () => navigate({ to: '/admin/management/users' })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: Record<string, string | null> = editing
      ? {}
      : { name: nameError(form.name), password: passwordError(form.password) }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return
    const common = {
      email: form.email || null,
      admin: form.admin,
      disabled: form.disabled,
      mfaRequired: form.mfaRequired,
      groups: form.groups,
    }
    if (name) await update.mutateAsync({ name, ...common })
    else await create.mutateAsync({ name: form.name, password: form.password, ...common })
    await back()
  }
  const self = Boolean(name) && me?.name === name
  return (
    <>
      <PageHeader
        title={editing ? `Edit user ${name}` : 'New user'}
        breadcrumbs={['Administration', 'User Management', 'Users']}
      />
      <AccessNav active="Users" />
      <ErrorAlert error={create.error ?? update.error ?? remove.error ?? user.error} />
      <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
        <Stack maw={520} gap="sm">
          <TextInput
            label="User name"
            required
            disabled={editing}
            value={form.name}
            error={errors.name}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
          <TextInput label="Email" type="email" value={form.email} onChange={(e) => set('email', e.currentTarget.value)} />
          {!editing && (
            <PasswordInput
              label="Password"
              required
              value={form.password}
              error={errors.password}
              onChange={(e) => set('password', e.currentTarget.value)}
            />
          )}
          <Checkbox label="Administrator" checked={form.admin} onChange={(e) => set('admin', e.currentTarget.checked)} />
          <Checkbox label="Disabled" checked={form.disabled} onChange={(e) => set('disabled', e.currentTarget.checked)} />
          <Checkbox
            label="Require multi-factor authentication"
            checked={form.mfaRequired}
            onChange={(e) => set('mfaRequired', e.currentTarget.checked)}
          />
          <MultiSelect
            label="Groups"
            data={(groups.data ?? []).map((g) => g.name)}
            value={form.groups}
            onChange={(value) => set('groups', value)}
            searchable
            clearable
          />
          <Group>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? 'Save' : 'Create user'}
            </Button>
            <Button variant="default" onClick={() => void back()}>
              Cancel
            </Button>
            {editing && name && (
              <Tooltip label={AccessMessages.selfDelete} disabled={!self}>
                <Button
                  color="red"
                  variant="light"
                  disabled={self}
                  loading={remove.isPending}
                  onClick={() => {
                    if (window.confirm(`Delete user ${name}?`)) void remove.mutateAsync(name).then(back, () => {})
                  }}
                >
                  Delete user
                </Button>
              </Tooltip>
            )}
          </Group>
        </Stack>
      </form>
      {editing && name && lock.data?.lockedUntil && (
        <Stack maw={520} gap="xs" mt="xl">
          <Title order={2} size="h4">
            Sign-in locked
          </Title>
          <ErrorAlert error={unlock.error} />
          <span>Too many failed sign-in attempts: locked until {new Date(lock.data.lockedUntil).toLocaleTimeString()}.</span>
          <Group>
            <Button variant="light" loading={unlock.isPending} onClick={() => void unlock.mutateAsync(name).catch(() => {})}>
              Unlock
            </Button>
          </Group>
        </Stack>
      )}
      {editing && name && (
        <Stack maw={520} gap="xs" mt="xl">
          <Title order={2} size="h4">
            Reset password
          </Title>
          <ErrorAlert error={reset.error} />
          <Group align="end">
            <PasswordInput
              label="New password"
              value={newPassword}
              onChange={(e) => setNewPassword(e.currentTarget.value)}
              w={280}
            />
            <Button
              variant="light"
              disabled={newPassword.length < PASSWORD_MIN_LENGTH}
              loading={reset.isPending}
              onClick={() =>
                void reset.mutateAsync({ name, password: newPassword }).then(
                  () => {
                    setNewPassword('')
                    setPasswordDone(true)
                  },
                  () => {},
                )
              }
            >
              Set password
            </Button>
          </Group>
          {passwordDone && <span role="status">The password was changed and the user's sessions ended.</span>}
        </Stack>
      )}
    </>
  )
}
