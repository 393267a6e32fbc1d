import { Badge, Button, Checkbox, Group, Stack, Table, TextInput, Title, Tooltip } from '@mantine/core'
import { ACTION_LABELS, ACTIONS, type Action } from '@trove/contracts/access'
import { type FormEvent, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useCreateRole, useDeleteRole, useRoles } from './api/roles'
import { ErrorAlert } from './ErrorAlert'
import { requiredError } from './validation'

/** /admin/management/global_roles: roles that span projects; the predefined project roles are shown, not changed. */
export function GlobalRolesPage() {
  const roles = useRoles()
  const create = useCreateRole()
  const remove = useDeleteRole()
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [actions, setActions] = useState<Action[]>(['read'])
  const [error, setError] = useState<string | null>(null)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = requiredError(name)
    setError(problem)
    if (problem) return
    await create.mutateAsync({ name, description, type: 'global', actions })
    setName('')
    setDescription('')
  }
  return (
    <>
      <PageHeader title="Global roles" breadcrumbs={['Administration', 'User Management']} />
      <AccessNav active="Global roles" />
      <ErrorAlert error={roles.error ?? create.error ?? remove.error} />
      <Table striped withTableBorder aria-label="Roles" mb="xl">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Role</Table.Th>
            <Table.Th w={130}>Type</Table.Th>
            <Table.Th>Actions</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {roles.data?.map((r) => (
            <Table.Tr key={r.name}>
              <Table.Td>{r.name}</Table.Td>
              <Table.Td>
                {r.predefined ? (
                  <Badge color="gray.7" miw={110}>
                    Predefined
                  </Badge>
                ) : (
                  <Badge color="blue.9">Global</Badge>
                )}
              </Table.Td>
              <Table.Td>{r.actions.map((a) => ACTION_LABELS[a]).join(', ')}</Table.Td>
              <Table.Td>{r.description}</Table.Td>
              <Table.Td>
                <Tooltip label="Predefined roles cannot be changed" disabled={!r.predefined}>
                  <Button
                    size="xs"
                    color="red"
                    variant="subtle"
                    disabled={r.predefined}
                    onClick={() => remove.mutate(r.name)}
                    aria-label={`Delete role ${r.name}`}
                  >
                    Delete
                  </Button>
                </Tooltip>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <form onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
        <Stack maw={640} gap="sm">
          <Title order={2} size="h4">
            New global role
          </Title>
          <TextInput label="Role name" required value={name} error={error} onChange={(e) => setName(e.currentTarget.value)} />
          <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Checkbox.Group label="Actions" value={actions} onChange={(v) => setActions(v as Action[])}>
            <Group mt={4}>
              {ACTIONS.map((a) => (
                <Checkbox key={a} value={a} label={ACTION_LABELS[a]} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create role
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  )
}
