import { Badge, Button, Group, Paper, Table, Text } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import { SERVICE_LABELS, SERVICE_TYPES, type ServiceType, type SupportBundle } from '@trove/contracts/operations'
import { useCallback, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { bundlesQuery, deleteBundle, downloadBundle, useBundles } from './api/bundles'
import { useRetention } from './api/retention'
import { useServiceStatus } from './api/serviceStatus'
import { CreateBundleDialog } from './CreateBundleDialog'
import { onlineNodesByService } from './rules/serviceStatus'
import { useBundleCreation } from './useBundleCreation'

// Shades whose white text keeps the WCAG AA contrast ratio.
const STATUS_COLOR: Record<SupportBundle['status'], string> = { in_progress: 'blue.9', success: 'trove', failed: 'red.9' }
const STATUS_LABEL: Record<SupportBundle['status'], string> = {
  in_progress: Messages.bundleInProgress,
  success: 'Ready',
  failed: 'Failed',
}

const size = (bytes: number | null) =>
  bytes === null
    ? '—'
    : bytes < 1024 * 1024
      ? `${Math.max(1, Math.round(bytes / 1024))} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`

export interface SupportZonePageProps {
  admin: boolean
}

/** Admin → Support Zone: support bundles per service — list, create, download, delete. */
export function SupportZonePage({ admin }: SupportZonePageProps) {
  const queryClient = useQueryClient()
  const bundles = useBundles()
  const status = useServiceStatus()
  const online = status.data ? onlineNodesByService(status.data) : {}
  // Retention is distribution's: with no node running it, it is off, and nobody is asked.
  const retention = useRetention(admin && Boolean(online.distribution))
  const [creating, setCreating] = useState(false)
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: bundlesQuery().queryKey }), [queryClient])
  const flow = useBundleCreation(reload)
  const services = SERVICE_TYPES.filter((s) => online[s])
  const inProgress = Object.values(flow.inProgress).reduce((a, n) => a + (n ?? 0), 0)
  const rows = [...flow.placeholders, ...(bundles.data ?? [])]

  return (
    <>
      <PageHeader title="Support Zone" breadcrumbs={['Administration', 'Support Zone']} />
      <Group mb="sm" justify="space-between">
        <Group gap="lg">
          <Text size="sm" c="dimmed">
            Target bundle retention: {retention.data ? 'enabled' : 'disabled'}
          </Text>
          {inProgress > 0 && (
            <Text size="sm" fw={500} aria-live="polite">
              Creating {inProgress} bundle{inProgress > 1 ? 's' : ''}…
            </Text>
          )}
        </Group>
        <Button onClick={() => setCreating(true)}>Create Support Bundle</Button>
      </Group>
      <Paper withBorder>
        <Table striped aria-label="Support bundles">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Service</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((b) => (
              <Table.Tr key={b.id} aria-label={`Bundle ${b.name}`}>
                <Table.Td>{b.name}</Table.Td>
                <Table.Td>{b.description}</Table.Td>
                <Table.Td>{SERVICE_LABELS[b.service as ServiceType] ?? b.service}</Table.Td>
                <Table.Td>{new Date(b.create_date).toLocaleString()}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Badge miw={90} color={STATUS_COLOR[b.status]} className={`bundle-status-${b.status}`}>
                    {STATUS_LABEL[b.status]}
                  </Badge>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{size(b.size)}</Table.Td>
                <Table.Td>
                  {!b.id.startsWith('placeholder-') && (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="subtle" disabled={b.status !== 'success'} onClick={() => downloadBundle(b.id)}>
                        Download
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        disabled={b.status === 'in_progress'}
                        onClick={async () => {
                          await deleteBundle(b.id)
                          reload()
                        }}
                      >
                        Delete
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {bundles.isSuccess && rows.length === 0 && (
          <Text p="md" c="dimmed">
            {Messages.noBundles}
          </Text>
        )}
      </Paper>
      <CreateBundleDialog
        opened={creating}
        onClose={() => setCreating(false)}
        services={services.length > 0 ? services : ['repository']}
        onCreate={(service, request) => void flow.create(service, request)}
      />
    </>
  )
}
