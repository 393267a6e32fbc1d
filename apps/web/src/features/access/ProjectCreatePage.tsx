import { Button, Group, NumberInput, Stack, Textarea, TextInput } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { notify } from '../../lib/notify'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useCreateProject } from './api/projects'
import { ErrorAlert } from './ErrorAlert'
import { projectKeyError } from './validation'

/** /admin/projects/create */
export function ProjectCreatePage() {
  const create = useCreateProject()
  const navigate = useNavigate()
  const [form, setForm] = useState({ displayName: '', key: '', description: '', quotaGb: '' as number | string })
  const [errors, setErrors] = useState<Record<string, string | null>>({})
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = { displayName: form.displayName.trim() ? null : Messages.fieldMandatory, key: projectKeyError(form.key) }
    setErrors(found)
    if (found.displayName || found.key) return
    const quota = form.quotaGb === '' ? null : Math.round(Number(form.quotaGb) * 1024 ** 3)
    try {
      await create.mutateAsync({
        key: form.key,
        displayName: form.displayName,
        description: form.description,
        storageQuotaBytes: quota,
      })
    } catch {
      notify({ color: 'red', message: Messages.projectCreateFailed, autoClose: Limits.toastMs })
      return
    }
    await navigate({ to: '/admin/projects/members', search: { project: form.key } })
  }
  return (
    <>
      <PageHeader title="Create project" breadcrumbs={['Administration', 'Projects']} />
      <AccessNav active="Projects" />
      <ErrorAlert error={create.error} fallback={Messages.projectCreateFailed} />
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack maw={520} gap="sm">
          <TextInput
            label="Project name"
            required
            value={form.displayName}
            error={errors.displayName}
            onChange={(e) => setForm({ ...form, displayName: e.currentTarget.value })}
          />
          <TextInput
            label="Project key"
            required
            description="Starts with a lowercase letter; repositories of the project are named <key>-…"
            value={form.key}
            error={errors.key}
            onChange={(e) => setForm({ ...form, key: e.currentTarget.value })}
          />
          <Textarea
            label="Description"
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.currentTarget.value })}
          />
          <NumberInput
            label="Storage quota (GB)"
            description="Empty: no limit"
            min={0}
            value={form.quotaGb}
            onChange={(v) => setForm({ ...form, quotaGb: v })}
          />
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create project
            </Button>
            <Button variant="default" onClick={() => void navigate({ to: '/admin/projects/list' })}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  )
}
