import { Alert, Badge, Button, Code, Group, Image, Modal, Stack, Table, Text, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { sanitizeProviderUrl } from '@trove/contracts/safeUrl'
import type { OAuthProvider } from '@trove/contracts/sso'
import { useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { useLoginScreenSettings } from './api/loginScreen'
import { useDeleteOAuthProvider, useOAuthProviders } from './api/oauthProviders'
import { LoginScreenSettingsForm } from './LoginScreenSettingsForm'
import { OAuthProviderForm } from './OAuthProviderForm'

const CALLBACK = '/ui/api/v1/ui/auth/oauth/callback'

/** Administration of OAuth / OpenID Connect providers and of the login screen. */
export function OAuthProvidersPage() {
  const providers = useOAuthProviders()
  const loginScreen = useLoginScreenSettings()
  const remove = useDeleteOAuthProvider()
  const [editing, setEditing] = useState<OAuthProvider | 'new' | null>(null)
  const [deleting, setDeleting] = useState<OAuthProvider | null>(null)
  const redirectUri = providers.data?.providers[0]?.redirectUri ?? `${window.location.origin}${CALLBACK}`
  const error = providers.error ?? remove.error

  return (
    <Stack gap="xl" maw={1000}>
      <PageHeader title="OAuth SSO" breadcrumbs={['Platform Configurations', 'Security', 'OAuth SSO']}>
        <Text size="sm" c="dimmed">
          Users sign in with an OpenID Connect provider (authorization code with PKCE). Register this redirect URI at the
          provider: <Code>{redirectUri}</Code>
        </Text>
      </PageHeader>
      <Stack gap="sm" component="section" aria-label="Providers">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Providers
          </Title>
          <Button onClick={() => setEditing('new')}>Add provider</Button>
        </Group>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        {providers.data && providers.data.providers.length === 0 && (
          <Text c="dimmed" size="sm">
            No OAuth provider yet: the login screen offers the password form only.
          </Text>
        )}
        {providers.data && providers.data.providers.length > 0 && (
          <Table striped withTableBorder aria-label="OAuth providers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Issuer URL</Table.Th>
                <Table.Th>Client ID</Table.Th>
                <Table.Th>Users</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {providers.data.providers.map((p) => {
                const icon = sanitizeProviderUrl(p.icon)
                return (
                  <Table.Tr key={p.name}>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        {icon && <Image src={icon} alt="" w={16} h={16} />}
                        <Text size="sm" fw={500}>
                          {p.name}
                        </Text>
                      </Group>
                    </Table.Td>
                    <Table.Td>{p.type}</Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ wordBreak: 'break-all' }}>
                        {p.issuerUrl}
                      </Text>
                    </Table.Td>
                    <Table.Td>{p.clientId}</Table.Td>
                    <Table.Td>
                      {p.autoCreateUsers ? 'created on first sign-in' : 'existing only'}
                      {p.defaultGroups.length > 0 && (
                        <Text size="xs" c="dimmed">
                          groups: {p.defaultGroups.join(', ')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={p.enabled ? 'trove' : 'gray.7'}>{p.enabled ? 'Enabled' : 'Disabled'}</Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <Button size="xs" variant="default" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
                          Edit
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          onClick={() => setDeleting(p)}
                          aria-label={`Delete ${p.name}`}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                )
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      {loginScreen.data && <LoginScreenSettingsForm initial={loginScreen.data} />}

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New OAuth provider' : editing ? `Edit ${editing.name}` : ''}
        size="lg"
      >
        {editing !== null && <OAuthProviderForm provider={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Modal>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete provider" centered>
        <Stack>
          <Text size="sm">Delete {deleting?.name}? Its users keep their accounts but can no longer sign in through it.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => deleting && remove.mutate(deleting.name, { onSuccess: () => setDeleting(null) })}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  )
}
