import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { AuthCard } from './AuthCard'
import { useForgotPassword } from './api/passwords'

/** Asks for a password-reset link by mail. */
export function ForgotPasswordPage() {
  const forgot = useForgotPassword()
  const [user, setUser] = useState('')
  const [touched, setTouched] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (user) forgot.mutate(user)
  }
  return (
    <AuthCard
      title="Forgot password"
      subtitle="We will mail a link to reset it to the address of this user."
      error={forgot.error ? forgot.error.message || Messages.emailNotSent : null}
    >
      {forgot.isSuccess ? (
        <Alert color="green" variant="light" role="status">
          If this user has an e-mail address, a link to reset the password is on its way. It works once, for an hour.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Forgot password">
          <Stack gap="md">
            <TextInput
              label="Username"
              autoComplete="username"
              autoFocus
              value={user}
              onChange={(e) => setUser(e.currentTarget.value)}
              error={touched && !user ? Messages.fieldMandatory : undefined}
            />
            <Button type="submit" loading={forgot.isPending} fullWidth>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" size="sm">
        Back to sign in
      </Anchor>
    </AuthCard>
  )
}
