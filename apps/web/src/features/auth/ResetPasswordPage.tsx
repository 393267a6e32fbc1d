import { Anchor, Button, Loader, Stack } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { UserData } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { AuthCard } from './AuthCard'
import { useResetKey, useResetPassword } from './api/passwords'
import { NewPasswordFields, newPasswordErrors } from './NewPasswordFields'

/** Opened from the mailed link: choose a new password, then sign in with it. */
export function ResetPasswordPage({ resetKey, onSignedIn }: { resetKey: string; onSignedIn: (user: UserData) => void }) {
  const owner = useResetKey(resetKey)
  const reset = useResetPassword(resetKey)
  const [value, setValue] = useState({ password: '', confirm: '' })
  const [touched, setTouched] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (owner.data && Object.keys(newPasswordErrors(value)).length === 0) {
      reset.mutate({ user: owner.data.user, password: value.password }, { onSuccess: onSignedIn })
    }
  }
  const error = !resetKey
    ? 'This link is not complete: open the one from the mail again.'
    : owner.error
      ? owner.error.message || Messages.resetPasswordFailed
      : reset.error
        ? reset.error.message || Messages.resetPasswordFailed
        : null
  return (
    <AuthCard
      title="Reset password"
      subtitle={owner.data ? `Choose a new password for ${owner.data.user}.` : undefined}
      error={error}
    >
      {owner.isLoading && <Loader mx="auto" />}
      {owner.data && (
        <form onSubmit={submit} noValidate aria-label="Reset password">
          <Stack gap="md">
            <NewPasswordFields value={value} onChange={setValue} showErrors={touched} />
            <Button type="submit" loading={reset.isPending} fullWidth>
              Set password and sign in
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login/forgot-password" size="sm">
        Ask for a new link
      </Anchor>
    </AuthCard>
  )
}
