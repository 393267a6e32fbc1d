import { Button, PasswordInput, Stack } from '@mantine/core'
import type { UserData } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { AuthCard } from './AuthCard'
import { useChangePassword } from './api/passwords'
import { NewPasswordFields, newPasswordErrors } from './NewPasswordFields'

/** Where an expired password leads (shell §8): the current password, a new one, then sign-in. */
export function ChangePasswordPage({ userName, onSignedIn }: { userName: string; onSignedIn: (user: UserData) => void }) {
  const change = useChangePassword()
  const [oldPassword, setOldPassword] = useState('')
  const [value, setValue] = useState({ password: '', confirm: '' })
  const [touched, setTouched] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (!oldPassword || Object.keys(newPasswordErrors(value)).length > 0) return
    change.mutate({ userName, oldPassword, newPassword1: value.password, newPassword2: value.confirm }, { onSuccess: onSignedIn })
  }
  return (
    <AuthCard
      title="Change password"
      subtitle={`The password of ${userName} has expired: choose a new one.`}
      error={change.error ? change.error.message || Messages.changePasswordFailed : null}
    >
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack gap="md">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={oldPassword}
            onChange={(e) => setOldPassword(e.currentTarget.value)}
            error={touched && !oldPassword ? Messages.fieldMandatory : undefined}
          />
          <NewPasswordFields value={value} onChange={setValue} showErrors={touched} />
          <Button type="submit" loading={change.isPending} fullWidth>
            Change password and sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
