import { Alert, Button, PinInput, Stack, Text } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'

export interface OneTimeCodeFormProps {
  submitLabel: string
  pending: boolean
  error: Error | null
  onSubmit: (code: string) => void
}

/** Six digits from an authenticator app. */
export function OneTimeCodeForm({ submitLabel, pending, error, onSubmit }: OneTimeCodeFormProps) {
  const [code, setCode] = useState('')
  const [touched, setTouched] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (code.length === 6) onSubmit(code)
  }
  return (
    <form onSubmit={submit} noValidate aria-label="One-time code">
      <Stack gap="sm">
        {error && (
          <Alert color="red" role="alert" variant="light">
            {error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        <Text size="sm" fw={500} id="otp-label">
          One-time code
        </Text>
        <PinInput
          length={6}
          type="number"
          oneTimeCode
          autoFocus
          value={code}
          onChange={setCode}
          aria-labelledby="otp-label"
          error={touched && code.length !== 6}
        />
        {touched && code.length !== 6 && (
          <Text size="xs" c="red">
            {Messages.fieldMandatory}
          </Text>
        )}
        <Button type="submit" loading={pending} fullWidth>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  )
}
