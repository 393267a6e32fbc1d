import { Alert, Paper, Stack, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'

export interface AuthCardProps {
  title: string
  subtitle?: ReactNode
  /** An error to show above the form: the server's message, or the screen's fallback text. */
  error?: string | null
  children: ReactNode
}

/** The card every sign-in screen sits in. */
export function AuthCard({ title, subtitle, error, children }: AuthCardProps) {
  return (
    <Paper component="main" withBorder shadow="sm" p="xl" radius="md" w={400} maw="92vw">
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          )}
        </div>
        {error && (
          <Alert color="red" role="alert" variant="light">
            {error}
          </Alert>
        )}
        {children}
      </Stack>
    </Paper>
  )
}
