import { ActionIcon, Button, Checkbox, Group, MultiSelect, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core'
import type { ProjectMember } from '@trove/contracts/access'
import { useEffect, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useMembers, useSaveMembers } from './api/projects'
import { useRoles } from './api/roles'
import { ErrorAlert } from './ErrorAlert'
import { ProjectPicker } from './ProjectPicker'

/** /admin/projects/members?project=key: users and groups of a project and their roles. */
export function ProjectMembersPage({ projectKey }: { projectKey: string }) {
  const members = useMembers(projectKey)
  const roles = useRoles()
  const save = useSaveMembers()
  const [rows, setRows] = useState<ProjectMember[]>([])
  const [saved, setSaved] = useState(false)
  const [draft, setDraft] = useState<ProjectMember>({ kind: 'user', name: '', roles: [] })
  useEffect(() => {
    if (members.data) setRows(members.data.members)
  }, [members.data])
  const roleNames = (roles.data ?? []).map((r) => r.name)
  const commit = async (next: ProjectMember[]) => {
    setSaved(false)
    const result = await save.mutateAsync({ key: projectKey, members: next })
    setRows(result.members)
    setSaved(true)
  }
  return (
    <>
      <PageHeader title="Project members" breadcrumbs={['Administration', 'Projects']} />
      <AccessNav active="Projects" />
      <ProjectPicker value={projectKey} to="/admin/projects/members" />
      <ErrorAlert error={(projectKey ? members.error : null) ?? save.error} />
      {projectKey && members.data && (
        <Stack gap="md">
          <Table striped withTableBorder aria-label="Members">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Member</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Roles</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m, i) => (
                <Table.Tr key={`${m.kind}:${m.name}`}>
                  <Table.Td>{m.name}</Table.Td>
                  <Table.Td>{m.kind === 'user' ? 'User' : 'Group'}</Table.Td>
                  <Table.Td>
                    <MultiSelect
                      aria-label={`Roles of ${m.name}`}
                      data={roleNames}
                      value={m.roles}
                      onChange={(value) => setRows(rows.map((r, j) => (j === i ? { ...r, roles: value } : r)))}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${m.name}`}
                      onClick={() => setRows(rows.filter((_, j) => j !== i))}
                    >
                      ×
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {rows.length === 0 && <Text c="dimmed">No members yet</Text>}
          <Group align="end">
            <NativeSelect
              label="Member type"
              data={[
                { value: 'user', label: 'User' },
                { value: 'group', label: 'Group' },
              ]}
              value={draft.kind}
              onChange={(e) => setDraft({ ...draft, kind: e.currentTarget.value as ProjectMember['kind'] })}
            />
            <TextInput
              label="Member name"
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
            />
            <Checkbox.Group label="Member roles" value={draft.roles} onChange={(value) => setDraft({ ...draft, roles: value })}>
              <Group gap="xs" mt={4}>
                {roleNames.map((r) => (
                  <Checkbox key={r} value={r} label={r} />
                ))}
              </Group>
            </Checkbox.Group>
            <Button
              variant="light"
              disabled={!draft.name.trim() || draft.roles.length === 0}
              onClick={() => {
                setRows([
                  ...rows.filter((r) => !(r.kind === draft.kind && r.name === draft.name)),
                  { ...draft, name: draft.name.trim() },
                ])
                setDraft({ kind: 'user', name: '', roles: [] })
              }}
            >
              Add member
            </Button>
          </Group>
          <Group>
            <Button onClick={() => void commit(rows).catch(() => {})} loading={save.isPending}>
              Save members
            </Button>
            {saved && <span role="status">Saved</span>}
          </Group>
        </Stack>
      )}
    </>
  )
}
