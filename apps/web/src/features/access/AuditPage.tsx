import { Code, NativeSelect, Pagination, Table, Text } from '@mantine/core'
import type { AuditEvent } from '@trove/contracts/access'
import { useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { AccessNav } from './AccessNav'
import { useAudit } from './api/audit'
import { ErrorAlert } from './ErrorAlert'

const TYPES = ['', 'user', 'group', 'permission', 'project', 'role', 'security'] as const

/** /admin/management/audit: who changed which user, group, permission or project, and when. */
export function AuditPage() {
  const [targetType, setTargetType] = useState<(typeof TYPES)[number]>('')
  const [page, setPage] = useState(1)
  const audit = useAudit({ targetType: (targetType || undefined) as AuditEvent['targetType'] | undefined, page })
  const data = audit.data
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1
  return (
    <>
      <PageHeader title="Audit" breadcrumbs={['Administration', 'User Management']} />
      <AccessNav active="Audit" />
      <NativeSelect
        label="Show changes of"
        w={220}
        mb="sm"
        data={TYPES.map((t) => ({ value: t, label: t ? `${t[0]?.toUpperCase()}${t.slice(1)}s` : 'Everything' }))}
        value={targetType}
        onChange={(e) => {
          setTargetType(e.currentTarget.value as (typeof TYPES)[number])
          setPage(1)
        }}
      />
      <ErrorAlert error={audit.error} />
      <Table striped withTableBorder aria-label="Audit events">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Change</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>Details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data?.items.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{new Date(e.at).toLocaleString()}</Table.Td>
              <Table.Td>{e.actor}</Table.Td>
              <Table.Td>{e.action}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {e.targetType} {e.targetName}
              </Table.Td>
              <Table.Td>
                <Code style={{ overflowWrap: 'anywhere' }}>{JSON.stringify(e.details).slice(0, 160)}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data?.items.length === 0 && (
        <Text c="dimmed" mt="sm">
          Nothing changed yet
        </Text>
      )}
      {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} />}
    </>
  )
}
