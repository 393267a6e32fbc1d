import { Button, Group, Table, Text, Tooltip } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useMyAccess } from './api/myAccess'
import { useProjects } from './api/projects'
import { ErrorAlert } from './ErrorAlert'
import { formatQuota } from './validation'

/** /admin/projects/list: every project for an admin, their own for a project admin. */
export function ProjectsListPage() {
  const projects = useProjects()
  const me = useMyAccess().data
  return (
    <>
      <PageHeader title="Projects" breadcrumbs={['Administration', 'Projects']} />
      <AccessNav active="Projects" />
      <Group justify="flex-end" mb="sm">
        <Tooltip label="Only administrators create projects" disabled={Boolean(me?.admin)}>
          <Button component={Link} to="/admin/projects/create" disabled={!me?.admin} data-disabled={!me?.admin || undefined}>
            Create project
          </Button>
        </Tooltip>
      </Group>
      <ErrorAlert error={projects.error} />
      <Table striped withTableBorder aria-label="Projects">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Project</Table.Th>
            <Table.Th>Key</Table.Th>
            <Table.Th>Storage quota</Table.Th>
            <Table.Th>Members</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {projects.data?.map((p) => (
            <Table.Tr key={p.key}>
              <Table.Td>
                <Link to="/admin/projects/overview" search={{ project: p.key }}>
                  {p.displayName}
                </Link>
              </Table.Td>
              <Table.Td>{p.key}</Table.Td>
              <Table.Td>{formatQuota(p.storageQuotaBytes)}</Table.Td>
              <Table.Td>{p.memberCount}</Table.Td>
              <Table.Td>
                <Link to="/admin/projects/members" search={{ project: p.key }}>
                  Members
                </Link>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {projects.data?.length === 0 && (
        <Text c="dimmed" mt="sm">
          No projects
        </Text>
      )}
    </>
  )
}
