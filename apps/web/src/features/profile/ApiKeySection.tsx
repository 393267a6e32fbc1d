import { Alert, Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { useState } from 'react'
import { createApiKey, type Reauth, regenerateApiKey, revokeApiKey, showApiKey, useApiKeyAction } from './api/apiKey'

/** The user's API key: show, create, regenerate, revoke. The password was given when the profile was opened. */
export function ApiKeySection({ auth }: { auth: Reauth }) {
  const [key, setKey] = useState<string | null | undefined>(undefined)
  const show = useApiKeyAction(showApiKey)
  const create = useApiKeyAction(createApiKey)
  const regenerate = useApiKeyAction(regenerateApiKey)
  const revoke = useApiKeyAction(revokeApiKey)
  const actions = [show, create, regenerate, revoke]
  const error = actions.find((a) => a.error)?.error
  const run = (action: typeof show) => action.mutate(auth, { onSuccess: (r) => setKey(r.apiKey) })
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        API key
      </Title>
      <Text size="sm" c="dimmed">
        For IDEs and tools: use it as a Bearer token, or as the password with your user name.
      </Text>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {key !== undefined && (
        <Group gap="xs">
          {key ? <Code data-testid="api-key">{key}</Code> : <Text size="sm">You have no API key.</Text>}
          {key && (
            <CopyButton value={key}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          )}
        </Group>
      )}
      <Group gap="xs">
        <Button size="xs" variant="default" loading={show.isPending} onClick={() => run(show)}>
          Show key
        </Button>
        <Button size="xs" variant="default" loading={create.isPending} onClick={() => run(create)}>
          Create key
        </Button>
        <Button size="xs" variant="default" loading={regenerate.isPending} onClick={() => run(regenerate)}>
          Regenerate key
        </Button>
        <Button size="xs" color="red" variant="light" loading={revoke.isPending} onClick={() => run(revoke)}>
          Revoke key
        </Button>
      </Group>
    </Stack>
  )
}
