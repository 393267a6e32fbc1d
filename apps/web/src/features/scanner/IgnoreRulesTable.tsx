import { Alert, Badge, Button, Skeleton, Table, Text } from '@mantine/core'
import { format, Messages } from '@trove/contracts/messages'
import type { IgnoreRule } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useState } from 'react'
import { notify } from '../../lib/notify'
import { useDeleteIgnoreRule, useIgnoreRules } from './api/ignoreRules'
import { ConfirmDialog } from './ConfirmDialog'

// Ids, package coordinates and dates read best unbroken; the reason takes the remaining width.
const NOWRAP = { whiteSpace: 'nowrap' } as const
const issueOf = (r: IgnoreRule) => r.advisoryId ?? `licence ${r.license ?? ''}`
const scopeOf = (r: IgnoreRule) =>
  r.packageId ? (r.version ? `${r.packageId}@${r.version}` : `${r.packageId}, every version`) : 'Everywhere'

/** The ignore rules, newest first, each removable (what it accepted violates again). */
export function IgnoreRulesTable({ now = Date.now() }: { now?: number }) {
  const rules = useIgnoreRules()
  const remove = useDeleteIgnoreRule()
  const [deleting, setDeleting] = useState<IgnoreRule | null>(null)
  const closeDelete = () => {
    remove.reset()
    setDeleting(null)
  }
  if (rules.isPending) return <Skeleton h={120} />
  return (
    <>
      {rules.error && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {rules.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {rules.data?.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {ScreenMessages.scannerNoIgnoreRules}
        </Text>
      ) : (
        <Table striped withTableBorder aria-label={ScreenMessages.scannerIgnoreRulesTitle}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Ignored</Table.Th>
              <Table.Th>Where</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Added</Table.Th>
              <Table.Th w={100} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(rules.data ?? []).map((r) => {
              const expired = r.expiresAt !== null && Date.parse(r.expiresAt) <= now
              return (
                <Table.Tr key={r.id}>
                  <Table.Td style={NOWRAP}>
                    <Text size="sm" fw={600}>
                      {issueOf(r)}
                    </Text>
                  </Table.Td>
                  <Table.Td style={NOWRAP}>{scopeOf(r)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.reason}</Table.Td>
                  <Table.Td style={NOWRAP}>
                    {r.expiresAt ? new Date(r.expiresAt).toLocaleDateString() : 'Never'}
                    {expired && (
                      <Badge ml={6} color="gray" variant="light">
                        expired
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td style={NOWRAP}>
                    <Text size="sm">{new Date(r.createdAt).toLocaleString()}</Text>
                    <Text size="xs" c="dimmed">
                      by {r.createdBy}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      aria-label={`Remove the ignore rule of ${issueOf(r)}`}
                      onClick={() => setDeleting(r)}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              )
            })}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmDialog
        title="Remove ignore rule"
        confirmLabel="Remove"
        message={deleting && format(ScreenMessages.scannerIgnoreDeleteConfirm, { issue: issueOf(deleting) })}
        pending={remove.isPending}
        error={remove.error}
        onClose={closeDelete}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notify({ color: 'green', message: format(ScreenMessages.scannerIgnoreDeleted, { issue: issueOf(deleting) }) })
              closeDelete()
            },
          })
        }
      />
    </>
  )
}
