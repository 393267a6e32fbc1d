import { PasswordInput } from '@mantine/core'
import { PASSWORD_MIN_LENGTH } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'

export interface NewPasswordValue {
  password: string
  confirm: string
}

/** The problem with a new password, if any, per field. */
export function newPasswordErrors(value: NewPasswordValue): { password?: string; confirm?: string } {
  if (!value.password) return { password: Messages.fieldMandatory }
  if (value.password.length < PASSWORD_MIN_LENGTH)
    return { password: `A password has at least ${PASSWORD_MIN_LENGTH} characters` }
  if (value.confirm !== value.password) return { confirm: 'The new passwords do not match' }
  return {}
}

export function NewPasswordFields({
  value,
  onChange,
  showErrors,
}: {
  value: NewPasswordValue
  onChange: (value: NewPasswordValue) => void
  showErrors: boolean
}) {
  const errors = showErrors ? newPasswordErrors(value) : {}
  return (
    <>
      <PasswordInput
        label="New password"
        autoComplete="new-password"
        value={value.password}
        onChange={(e) => onChange({ ...value, password: e.currentTarget.value })}
        error={errors.password}
      />
      <PasswordInput
        label="Confirm new password"
        autoComplete="new-password"
        value={value.confirm}
        onChange={(e) => onChange({ ...value, confirm: e.currentTarget.value })}
        error={errors.confirm}
      />
    </>
  )
}
