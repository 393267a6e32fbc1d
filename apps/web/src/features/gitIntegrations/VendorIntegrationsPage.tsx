import { Alert, Button, Group, Menu, Skeleton, Table, Text } from '@mantine/core'
import { useNavigate, useParams } from '@tanstack/react-router'
import { type GitIntegration, type GitVendorName, gitVendor } from '@trove/contracts/gitIntegrations'
import { Messages } from '@trove/contracts/messages'
import { useReducer } from 'react'
import { notify } from '../../lib/notify'
import { PageHeader } from '../../ui/PageHeader'
import { useDeleteIntegration, useIntegrationGroups } from './api/integrations'
import { GitIntegrationModal } from './GitIntegrationModal'
import { initialModalState, modalReducer } from './modalState'
import { StatusBadge } from './StatusBadge'

function Row({ integration, onEdit, onScan }: { integration: GitIntegration; onEdit: () => void; onScan: () => void }) {
  const remove = useDeleteIntegration()
  const onDelete = () =>
    remove.mutate(integration.key, {
      onSuccess: ({ data }) => notify({ color: 'green', message: `${Messages.integrationDeleted} ${data}` }),
      onError: () => notify({ color: 'red', message: Messages.integrationDeleteFailed }),
    })
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {integration.name}
        </Text>
        <Text size="xs" c="dimmed">
          {integration.key}
        </Text>
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{integration.url}</Table.Td>
      <Table.Td>{integration.username}</Table.Td>
      <Table.Td>
        <StatusBadge status={integration.status} message={integration.statusMessage} />
      </Table.Td>
      <Table.Td>{integration.products.length ? 'Security scanner' : '—'}</Table.Td>
      <Table.Td>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="subtle" size="compact-sm" aria-label={`Actions for ${integration.name}`}>
              ⋯
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={onEdit}>Edit</Menu.Item>
            <Menu.Item onClick={onScan}>Select repositories</Menu.Item>
            <Menu.Item color="red" onClick={onDelete}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  )
}

/** Route integrations.vendor.list (§2 "Git integration screens"): one vendor's integrations with their status. */
export function VendorIntegrationsPage() {
  const { vendorName = '' } = useParams({ strict: false }) as { vendorName?: string }
  const vendor = gitVendor(vendorName)
  const groups = useIntegrationGroups()
  const navigate = useNavigate()
  const [modal, dispatch] = useReducer(modalReducer, initialModalState)
  const git = groups.data?.find((g) => g.type === 'git')
  const item = git?.items.find((i) => i.name === vendor?.name)
  const toScan = (vcsType: string, integrationId: string) =>
    void navigate({ to: '/gitRepoScan/selectRepos', search: { vcsType, integrationId } })
  const title = vendor ? `${vendor.displayName} integrations` : 'Git integrations'

  if (!vendor) {
    return (
      <>
        <PageHeader title={title} breadcrumbs={['Integrations']} />
        <Alert color="red" variant="light" role="alert">
          No git vendor named {vendorName}
        </Alert>
      </>
    )
  }
  const open = (integration?: GitIntegration) => dispatch({ type: 'open', vendorName: vendor.name as GitVendorName, integration })
  return (
    <>
      <PageHeader title={title} breadcrumbs={['Integrations', 'Source control']} />
      <Group justify="flex-end" mb="sm">
        <Button onClick={() => open()} disabled={!git?.available}>
          Add integration
        </Button>
      </Group>
      {groups.error && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {groups.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {git && !git.available && (
        <Alert color="orange" variant="light" mb="sm">
          Git integrations serve the security scanner, which is not enabled on this instance.
        </Alert>
      )}
      {groups.isPending ? (
        <Skeleton h={120} />
      ) : (
        <Table striped withTableBorder aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>URL</Table.Th>
              <Table.Th>User name</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Services</Table.Th>
              <Table.Th w={60} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {item?.integrations.map((integration) => (
              <Row
                key={integration.key}
                integration={integration}
                onEdit={() => open(integration)}
                onScan={() => toScan(vendor.name, integration.key)}
              />
            ))}
            {item && item.integrations.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={6}>
                  <Text c="dimmed" ta="center" py="md">
                    No {vendor.displayName} integration yet
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      )}
      <GitIntegrationModal state={modal} dispatch={dispatch} onSelectService={toScan} />
    </>
  )
}
