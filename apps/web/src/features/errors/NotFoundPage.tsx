import { Anchor, Stack, Text, Title } from '@mantine/core'

/** The 404 page: where unregistered paths and unknown items end up. */
export function NotFoundPage() {
  return (
    <Stack align="center" gap="xs" py={64} ta="center">
      <Title order={1}>404</Title>
      <Title order={2} size="h3" fw={500}>
        Page not found
      </Title>
      <Text c="dimmed">The page you are looking for does not exist or has moved.</Text>
      <Anchor href="/ui/">Go to the home page</Anchor>
    </Stack>
  )
}
