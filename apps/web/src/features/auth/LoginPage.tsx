import { Alert, Anchor, Button, Checkbox, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import type { UserData } from '@trove/contracts/auth'
import { BRAND_NAME, Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { useLogin } from './api/login'

export interface LoginPageProps {
  /** Where to go once the password is accepted: the user data's mfaStatus says whether a code must follow. */
  onSignedIn: (user: UserData) => void
  rememberMeEnabled?: boolean
}

/** The password sign-in form. */
export function LoginPage({ onSignedIn, rememberMeEnabled = true }: LoginPageProps) {
  const login = useLogin()
  const [user, setUser] = useState('')
  const [password, setPassword] = useState('')
  const [rememberMe, setRememberMe] = useState(false)
  const [touched, setTouched] = useState(false)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (!user || !password) return
    login.mutate({ user, password, rememberMe }, { onSuccess: onSignedIn })
  }

  return (
    <Paper component="main" withBorder shadow="sm" p="xl" radius="md" w={380} maw="92vw">
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {BRAND_NAME}
            </Title>
            <Text c="dimmed" size="sm">
              Sign in to continue
            </Text>
          </div>
          {login.error && (
            <Alert color="red" role="alert" variant="light">
              {login.error.message || Messages.somethingWentWrong}
            </Alert>
          )}
          <TextInput
            label="Username"
            name="username"
            autoComplete="username"
            autoFocus
            value={user}
            onChange={(e) => setUser(e.currentTarget.value)}
            error={touched && !user ? Messages.fieldMandatory : undefined}
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={touched && !password ? Messages.fieldMandatory : undefined}
          />
          {rememberMeEnabled && (
            <Checkbox label="Remember me" checked={rememberMe} onChange={(e) => setRememberMe(e.currentTarget.checked)} />
          )}
          <Button type="submit" loading={login.isPending} fullWidth>
            Log In
          </Button>
          <Anchor size="xs" c="dimmed" href="/api/docs" target="_blank" rel="noopener noreferrer">
            API reference
          </Anchor>
        </Stack>
      </form>
    </Paper>
  )
}
