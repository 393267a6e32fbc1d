import { Badge, Button, Group, Pagination, Table, Text, TextInput, UnstyledButton } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { UserListQuery } from '@trove/contracts/access'
import { useDeferredValue, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useUsers } from './api/users'
import { ErrorAlert } from './ErrorAlert'
import { InviteUserDialog } from './InviteUserDialog'

type Sort = NonNullable<UserListQuery['sort']>
const COLUMNS: { sort: Sort; label: string }[] = [
  { sort: 'name', label: 'User name' },
  { sort: 'email', label: 'Email' },
  { sort: 'admin', label: 'Admin' },
  { sort: 'disabled', label: 'Status' },
  { sort: 'createdAt', label: 'Created' },
]

/** /admin/management/users: search, sort by any column, pages of 100. */
export function UsersPage() {
  const [search, setSearch] = useState('')
  const [sort, setSort] = useState<Sort>('name')
  const [order, setOrder] = useState<'asc' | 'desc'>('asc')
  const [page, setPage] = useState(1)
  const [inviting, setInviting] = useState(false)
  const deferredSearch = useDeferredValue(search)
  const users = useUsers({ search: deferredSearch || undefined, sort, order, page })
  const data = users.data
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1
  const sortBy = (column: Sort) => {
    setOrder(column === sort && order === 'asc' ? 'desc' : 'asc')
    setSort(column)
    setPage(1)
  }
  return (
    <>
      <PageHeader title="Users" breadcrumbs={['Administration', 'User Management']} />
      <AccessNav active="Users" />
      <Group justify="space-between" mb="sm">
        <TextInput
          aria-label="Search users"
          placeholder="Search by name or email"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value)
            setPage(1)
          }}
          w={320}
        />
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {data ? `${data.total} ${data.total === 1 ? 'user' : 'users'}` : ''}
          </Text>
          <Button variant="default" onClick={() => setInviting(true)}>
            Invite by e-mail
          </Button>
          <Button component={Link} to="/admin/management/users/new">
            New user
          </Button>
        </Group>
      </Group>
      <InviteUserDialog opened={inviting} onClose={() => setInviting(false)} />
      <ErrorAlert error={users.error} />
      <Table striped withTableBorder highlightOnHover aria-label="Users">
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c.sort} aria-sort={sort === c.sort ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
                <UnstyledButton onClick={() => sortBy(c.sort)} fw={600} fz="sm">
                  {c.label} {sort === c.sort ? (order === 'asc' ? '▲' : '▼') : ''}
                </UnstyledButton>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data?.items.map((u) => (
            <Table.Tr key={u.name}>
              <Table.Td>
                <Link to="/admin/management/users/$name" params={{ name: u.name }}>
                  {u.name}
                </Link>
              </Table.Td>
              <Table.Td>{u.email ?? '—'}</Table.Td>
              <Table.Td>{u.admin ? <Badge color="violet.9">Admin</Badge> : ''}</Table.Td>
              <Table.Td>{u.disabled ? <Badge color="gray.7">Disabled</Badge> : <Badge color="trove">Active</Badge>}</Table.Td>
              <Table.Td>{new Date(u.createdAt).toLocaleDateString()}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data && data.items.length === 0 && (
        <Text c="dimmed" mt="sm">
          No users match
        </Text>
      )}
      {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} aria-label="Pages" />}
    </>
  )
}
