import { Button, Group, Table, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { RESOURCE_LABELS } from '@trove/contracts/access'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { usePermissions } from './api/permissions'
import { ErrorAlert } from './ErrorAlert'

/** /admin/management/permissions */
export function PermissionsPage() {
  const permissions = usePermissions()
  return (
    <>
      <PageHeader title="Permissions" breadcrumbs={['Administration', 'User Management']} />
      <AccessNav active="Permissions" />
      <Group justify="flex-end" mb="sm">
        <Button component={Link} to="/admin/management/permissions/create">
          New permission
        </Button>
      </Group>
      <ErrorAlert error={permissions.error} />
      <Table striped withTableBorder aria-label="Permissions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Permission name</Table.Th>
            <Table.Th>Resources</Table.Th>
            <Table.Th>Users</Table.Th>
            <Table.Th>Groups</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {permissions.data?.map((p) => (
            <Table.Tr key={p.name}>
              <Table.Td>
                <Link to="/admin/management/permissions/$name" params={{ name: p.name }}>
                  {p.name}
                </Link>
              </Table.Td>
              <Table.Td>{p.resources.map((r) => RESOURCE_LABELS[r]).join(', ')}</Table.Td>
              <Table.Td>{p.users}</Table.Td>
              <Table.Td>{p.groups}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {permissions.data?.length === 0 && (
        <Text c="dimmed" mt="sm">
          No permissions yet
        </Text>
      )}
    </>
  )
}
