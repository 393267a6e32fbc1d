import { Alert, Button, Code, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import type { TokenScope } from '@trove/contracts/tokens'
import { useState } from 'react'
import { useCreateToken, useRevokeToken, useTokens } from './api/tokens'

const LIFETIMES = [
  { value: String(60 * 60), label: '1 hour' },
  { value: String(24 * 60 * 60), label: '1 day' },
  { value: String(30 * 24 * 60 * 60), label: '30 days' },
  { value: String(365 * 24 * 60 * 60), label: '1 year' },
]
const SCOPES = [
  { value: 'full', label: 'Everything I may do' },
  { value: 'deploy', label: 'Read and deploy' },
  { value: 'read', label: 'Read only' },
]
const scopeLabel = (scope: string) => SCOPES.find((s) => s.value === scope)?.label ?? scope
const when = (ms: number | null) => (ms ? new Date(ms).toLocaleString() : '—')

/** Access tokens: made here, shown once, listed without their secrets, revoked. */
export function TokensSection({ userName }: { userName: string }) {
  const tokens = useTokens()
  const create = useCreateToken()
  const revoke = useRevokeToken()
  const [description, setDescription] = useState('')
  const [lifetime, setLifetime] = useState(LIFETIMES[2]?.value ?? '3600')
  const [scope, setScope] = useState<TokenScope>('full')
  const error = create.error ?? revoke.error ?? tokens.error
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Access tokens
      </Title>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      <Group align="end" gap="xs">
        <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} w={220} />
        <NativeSelect
          label="Expires after"
          data={LIFETIMES}
          value={lifetime}
          onChange={(e) => setLifetime(e.currentTarget.value)}
        />
        <NativeSelect label="Scope" data={SCOPES} value={scope} onChange={(e) => setScope(e.currentTarget.value as TokenScope)} />
        <Button
          onClick={() => create.mutate({ user: userName, expiresIn: Number(lifetime), description, scope })}
          loading={create.isPending}
        >
          Create token
        </Button>
      </Group>
      {create.data && (
        <Alert color="green" variant="light" role="status" title="Copy it now: it is shown only once">
          <Code data-testid="new-token">{create.data.access_token}</Code>
        </Alert>
      )}
      {tokens.data && tokens.data.length > 0 ? (
        <Table striped withTableBorder aria-label="Access tokens">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Description</Table.Th>
              <Table.Th>Scope</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.data.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td>{token.description ?? token.id}</Table.Td>
                <Table.Td>{scopeLabel(token.scope)}</Table.Td>
                <Table.Td>{when(token.createdAt)}</Table.Td>
                <Table.Td>{when(token.expiresAt)}</Table.Td>
                <Table.Td>{when(token.lastUsedAt)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    color="red"
                    variant="subtle"
                    onClick={() => revoke.mutate(token.id)}
                    aria-label={`Revoke ${token.description ?? token.id}`}
                  >
                    Revoke
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          No access tokens.
        </Text>
      )}
    </Stack>
  )
}
