import { Button, Group, NumberInput, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { DEFAULT_PROJECT, Messages } from '@trove/contracts/messages'
import { type FormEvent, useEffect, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useMyAccess } from './api/myAccess'
import { useDeleteProject, useProjects, useUpdateProject } from './api/projects'
import { ErrorAlert } from './ErrorAlert'
import { ProjectPicker } from './ProjectPicker'

/** /admin/projects/overview?project=key: a project's settings. */
export function ProjectOverviewPage({ projectKey }: { projectKey: string }) {
  const projects = useProjects()
  const me = useMyAccess().data
  const update = useUpdateProject()
  const remove = useDeleteProject()
  const navigate = useNavigate()
  const project = projects.data?.find((p) => p.key === projectKey)
  const [form, setForm] = useState({ displayName: '', description: '', quotaGb: '' as number | string })
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    if (project)
      setForm({
        displayName: project.displayName,
        description: project.description,
        quotaGb: project.storageQuotaBytes === null ? '' : project.storageQuotaBytes / 1024 ** 3,
      })
  }, [project])
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    await update.mutateAsync({
      key: projectKey,
      displayName: form.displayName,
      description: form.description,
      storageQuotaBytes: form.quotaGb === '' ? null : Math.round(Number(form.quotaGb) * 1024 ** 3),
    })
    setSaved(true)
  }
  const canDelete = Boolean(me?.admin) && projectKey !== DEFAULT_PROJECT.key
  return (
    <>
      <PageHeader title="Project overview" breadcrumbs={['Administration', 'Projects']} />
      <AccessNav active="Projects" />
      <ProjectPicker value={projectKey} to="/admin/projects/overview" />
      <ErrorAlert error={projects.error ?? update.error ?? remove.error} />
      {!project && projects.data && <Text c="dimmed">Choose one of your projects.</Text>}
      {project && (
        <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
          <Stack maw={520} gap="sm">
            <TextInput label="Project key" value={project.key} disabled />
            <TextInput
              label="Project name"
              required
              value={form.displayName}
              error={form.displayName.trim() ? null : Messages.fieldMandatory}
              onChange={(e) => setForm({ ...form, displayName: e.currentTarget.value })}
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
            <Text size="sm">Members: {project.memberCount}</Text>
            <Group>
              <Button type="submit" loading={update.isPending} disabled={!form.displayName.trim()}>
                Save
              </Button>
              <Tooltip
                label={me?.admin ? 'The default project cannot be deleted' : 'Only administrators delete projects'}
                disabled={canDelete}
              >
                <Button
                  color="red"
                  variant="light"
                  disabled={!canDelete}
                  onClick={() => {
                    if (window.confirm(`Delete project ${project.key}?`))
                      void remove.mutateAsync(project.key).then(
                        () => navigate({ to: '/admin/projects/list' }),
                        () => {},
                      )
                  }}
                >
                  Delete project
                </Button>
              </Tooltip>
            </Group>
            {saved && <span role="status">Saved</span>}
          </Stack>
        </form>
      )}
    </>
  )
}
