import { Alert, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core'
import { PASSWORD_MIN_LENGTH } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { useChangePassword } from './api/changePassword'

const MISMATCH = 'The new passwords do not match'

/** The profile's password change: the current password (given to unlock the profile) and a new one, twice. */
export function PasswordSection({
  userName,
  currentPassword,
  onChanged,
}: {
  userName: string
  currentPassword: string
  onChanged: (newPassword: string) => void
}) {
  const change = useChangePassword()
  const [next, setNext] = useState('')
  const [confirm, setConfirm] = useState('')
  const [touched, setTouched] = useState(false)
  const nextError = !next
    ? Messages.fieldMandatory
    : next.length < PASSWORD_MIN_LENGTH
      ? `A password has at least ${PASSWORD_MIN_LENGTH} characters`
      : undefined
  const confirmError = !nextError && confirm !== next ? MISMATCH : undefined

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (nextError || confirmError) return
    change.mutate(
      { userName, oldPassword: currentPassword, newPassword1: next, newPassword2: confirm },
      {
        onSuccess: () => {
          onChanged(next)
          setNext('')
          setConfirm('')
          setTouched(false)
        },
      },
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Change password">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Password
        </Title>
        {change.error && (
          <Alert color="red" variant="light" role="alert">
            {change.error.message || Messages.changePasswordFailed}
          </Alert>
        )}
        <Group align="flex-start" gap="sm">
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={touched ? nextError : undefined}
            w={240}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            error={touched ? confirmError : undefined}
            w={240}
          />
        </Group>
        <Group gap="sm">
          <Button type="submit" variant="default" loading={change.isPending}>
            Change password
          </Button>
          {change.isSuccess && (
            <Text size="sm" c="green" role="status">
              Password changed
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  )
}
