import { Code, Stack, Text, Title } from '@mantine/core'

/** The 406 page: shows the request id so it can be matched with the server's log. */
export function NotAcceptablePage({ requestId }: { requestId: string }) {
  return (
    <Stack align="center" gap="xs" py={64} ta="center">
      <Title order={1}>406</Title>
      <Title order={2} size="h3" fw={500}>
        Not acceptable
      </Title>
      <Text c="dimmed">The server could not answer this request in an acceptable form.</Text>
      <Text>
        Request id: <Code data-testid="request-id">{requestId}</Code>
      </Text>
    </Stack>
  )
}
