import { Alert, Badge, Button, Group, Skeleton, Table, Text } from '@mantine/core'
import { format, Messages } from '@trove/contracts/messages'
import type { SecurityPolicy } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useState } from 'react'
import { notify } from '../../lib/notify'
import { PageHeader } from '../../ui/PageHeader'
import { SeverityBadge } from '../../ui/SeverityBadge'
import { useDeletePolicy, usePolicies } from './api/policies'
import { ConfirmDialog } from './ConfirmDialog'
import { PolicyDialog } from './PolicyDialog'

const BREADCRUMBS = ['Administration', 'Security & Compliance']

function Licences({ policy }: { policy: SecurityPolicy }) {
  return (
    <Text size="sm">
      {policy.allowedLicenses ? `Only ${policy.allowedLicenses.join(', ')}` : 'Any allowed'}
      {policy.deniedLicenses.length > 0 && `; never ${policy.deniedLicenses.join(', ')}`}
    </Text>
  )
}

function Actions({ policy }: { policy: SecurityPolicy }) {
  const { notify: n, failBuild, blockDownload } = policy.actions
  if (!n && !failBuild && !blockDownload) return <Text c="dimmed">—</Text>
  return (
    <Group gap={4}>
      {n && <Badge variant="light">Notify</Badge>}
      {failBuild && (
        <Badge variant="light" color="orange">
          Fail build
        </Badge>
      )}
      {blockDownload && (
        <Badge variant="light" color="red">
          Block download
        </Badge>
      )}
    </Group>
  )
}

/** /admin/security_policies: the scanner's policies, created, changed and deleted here. */
export function PoliciesPage() {
  const policies = usePolicies()
  const remove = useDeletePolicy()
  const [editing, setEditing] = useState<{ policy?: SecurityPolicy } | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)
  const closeDelete = () => {
    remove.reset()
    setDeleting(null)
  }
  const rows = policies.data ?? []

  return (
    <>
      <PageHeader title={ScreenMessages.scannerPoliciesTitle} breadcrumbs={BREADCRUMBS} />
      <Group justify="flex-end" mb="sm">
        <Button onClick={() => setEditing({})}>New policy</Button>
      </Group>
      {policies.error && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {policies.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {policies.isPending ? (
        <Skeleton h={120} />
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {ScreenMessages.scannerNoPolicies}
        </Text>
      ) : (
        <Table striped withTableBorder aria-label={ScreenMessages.scannerPoliciesTitle}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Minimum severity</Table.Th>
              <Table.Th>Licences</Table.Th>
              <Table.Th>Actions</Table.Th>
              <Table.Th w={150} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.name}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {p.name}
                  </Text>
                  {p.description && (
                    <Text size="xs" c="dimmed">
                      {p.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{p.minSeverity ? <SeverityBadge severity={p.minSeverity} /> : <Text c="dimmed">—</Text>}</Table.Td>
                <Table.Td>
                  <Licences policy={p} />
                </Table.Td>
                <Table.Td>
                  <Actions policy={p} />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      aria-label={`Edit ${p.name}`}
                      onClick={() => setEditing({ policy: p })}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      aria-label={`Delete ${p.name}`}
                      onClick={() => setDeleting(p.name)}
                    >
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <PolicyDialog opened={editing !== null} policy={editing?.policy} onClose={() => setEditing(null)} />
      <ConfirmDialog
        title="Delete policy"
        confirmLabel="Delete"
        message={deleting && format(ScreenMessages.scannerPolicyDeleteConfirm, { name: deleting })}
        pending={remove.isPending}
        error={remove.error}
        onClose={closeDelete}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting, {
            onSuccess: () => {
              notify({ color: 'green', message: format(ScreenMessages.scannerPolicyDeleted, { name: deleting }) })
              closeDelete()
            },
          })
        }
      />
    </>
  )
}
