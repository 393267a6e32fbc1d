import { Alert, Button, Code, CopyButton, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core'
import { format, Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { type FormEvent, useState } from 'react'

export interface IdeIntegrationModalProps {
  /** The tool being set up; null: closed. */
  tool: string | null
  onClose: () => void
  user: string
  /** Where tools reach Trove (set-me-up's baseUrl). */
  baseUrl: string | undefined
  /** The key fetched before opening (single sign-on users, packages §4), or null. */
  apiKey: string | null
  /** Users with a password ask for the key by giving it again; null for single sign-on users. */
  fetchKey: ((password: string) => Promise<string>) | null
}

function Value({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid={testId} style={{ wordBreak: 'break-all' }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy} aria-label={`Copy ${label}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  )
}

/** The common IDE and developer-tool modal (packages §2, §4): the base URL, the user and the API key. */
export function IdeIntegrationModal({ tool, onClose, user, baseUrl, apiKey, fetchKey }: IdeIntegrationModalProps) {
  const [key, setKey] = useState<string | null>(apiKey)
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!fetchKey) return
    setPending(true)
    setError(null)
    try {
      setKey(await fetchKey(password))
      setPassword('')
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : Messages.somethingWentWrong)
    } finally {
      setPending(false)
    }
  }

  return (
    <Modal opened={tool !== null} onClose={onClose} title={tool ?? ''} size="lg" centered>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {format(ScreenMessages.ideIntegrationHint, { tool: tool ?? '' })}
        </Text>
        {baseUrl && <Value label={ScreenMessages.ideIntegrationBaseUrl} value={baseUrl} testId="ide-base-url" />}
        <Value label={ScreenMessages.ideIntegrationUser} value={user} testId="ide-user" />
        {key ? (
          <Value label={ScreenMessages.ideIntegrationApiKey} value={key} testId="ide-api-key" />
        ) : (
          fetchKey && (
            <form onSubmit={submit}>
              <Stack gap="xs">
                {error && (
                  <Alert color="red" variant="light" role="alert">
                    {error}
                  </Alert>
                )}
                <Group align="flex-end" gap="xs">
                  <PasswordInput
                    label={ScreenMessages.ideIntegrationPassword}
                    value={password}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                    autoComplete="current-password"
                    style={{ flex: 1 }}
                  />
                  <Button type="submit" loading={pending} disabled={password === ''}>
                    {ScreenMessages.ideIntegrationShowKey}
                  </Button>
                </Group>
              </Stack>
            </form>
          )
        )}
      </Stack>
    </Modal>
  )
}
