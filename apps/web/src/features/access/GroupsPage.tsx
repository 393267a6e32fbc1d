import { Badge, Button, Group, Table, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useGroups } from './api/groups'
import { ErrorAlert } from './ErrorAlert'

/** /admin/management/groups */
export function GroupsPage() {
  const groups = useGroups()
  return (
    <>
      <PageHeader title="Groups" breadcrumbs={['Administration', 'User Management']} />
      <AccessNav active="Groups" />
      <Group justify="flex-end" mb="sm">
        <Button component={Link} to="/admin/management/groups/new">
          New group
        </Button>
      </Group>
      <ErrorAlert error={groups.error} />
      <Table striped withTableBorder aria-label="Groups">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Group name</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Members</Table.Th>
            <Table.Th>Options</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.data?.map((g) => (
            <Table.Tr key={g.name}>
              <Table.Td>
                <Link to="/admin/management/groups/$name" params={{ name: g.name }}>
                  {g.name}
                </Link>
              </Table.Td>
              <Table.Td>{g.description}</Table.Td>
              <Table.Td>{g.memberCount}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {g.autoJoin && <Badge color="blue.9">Auto-join</Badge>}
                  {g.adminPrivileges && <Badge color="violet.9">Admin privileges</Badge>}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {groups.data?.length === 0 && (
        <Text c="dimmed" mt="sm">
          No groups yet
        </Text>
      )}
    </>
  )
}
