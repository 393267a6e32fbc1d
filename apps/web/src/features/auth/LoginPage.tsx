import { Alert, Anchor, Button, Checkbox, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { UserData } from '@trove/contracts/auth'
import { CREDENTIALS_EXPIRED } from '@trove/contracts/http'
import { BRAND_NAME, Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { ApiError } from '../../lib/api'
import { useLoginRelatedData } from './api/accounts'
import { useLogin } from './api/login'

export interface LoginPageProps {
  /** Where to go once the password is accepted: the user data's mfaStatus says whether a code must follow. */
  onSignedIn: (user: UserData) => void
  /** Shell §8: an expired password goes to the change-password screen with the user name. */
  onPasswordExpired: (userName: string) => void
  rememberMeEnabled?: boolean
}

/** The password sign-in form. */
export function LoginPage({ onSignedIn, onPasswordExpired, rememberMeEnabled = true }: LoginPageProps) {
  const login = useLogin()
  const loginData = useLoginRelatedData()
  const [user, setUser] = useState('')
  const [password, setPassword] = useState('')
  const [rememberMe, setRememberMe] = useState(false)
  const [touched, setTouched] = useState(false)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (!user || !password) return
    login.mutate(
      { user, password, rememberMe },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          if (error instanceof ApiError && error.code === CREDENTIALS_EXPIRED) onPasswordExpired(user)
        },
      },
    )
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
          <Group justify="space-between">
            <Group gap="md">
              {loginData.data?.forgotPassword && (
                <Anchor component={Link} to="/login/forgot-password" size="sm">
                  Forgot password?
                </Anchor>
              )}
              {loginData.data?.registrationEnabled && (
                <Anchor component={Link} to="/login/registration" size="sm">
                  Create an account
                </Anchor>
              )}
            </Group>
            <Anchor size="xs" c="dimmed" href="/api/docs" target="_blank" rel="noopener noreferrer">
              API reference
            </Anchor>
          </Group>
        </Stack>
      </form>
    </Paper>
  )
}
