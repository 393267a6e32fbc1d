import { Button, Stack, TextInput } from '@mantine/core'
import type { UseMutationResult } from '@tanstack/react-query'
import type { UserData } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { NewPasswordFields, newPasswordErrors } from './NewPasswordFields'

const NAME = /^[A-Za-z0-9._-]+$/

export interface NewAccountFormProps<T> {
  /** Set when the address is already known (an invitation). */
  fixedEmail?: string
  submitLabel: string
  mutation: UseMutationResult<UserData, Error, T>
  toInput: (values: { name: string; email: string; password: string }) => T
  onSignedIn: (user: UserData) => void
}

/** Name, e-mail (unless given) and password for a new account. */
export function NewAccountForm<T>({ fixedEmail, submitLabel, mutation, toInput, onSignedIn }: NewAccountFormProps<T>) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState(fixedEmail ?? '')
  const [password, setPassword] = useState({ password: '', confirm: '' })
  const [touched, setTouched] = useState(false)
  const nameError = !name ? Messages.fieldMandatory : NAME.test(name) ? undefined : Messages.invalidName
  const emailError = email ? undefined : Messages.fieldMandatory
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (nameError || emailError || Object.keys(newPasswordErrors(password)).length > 0) return
    mutation.mutate(toInput({ name, email, password: password.password }), { onSuccess: onSignedIn })
  }
  return (
    <form onSubmit={submit} noValidate aria-label="New account">
      <Stack gap="md">
        <TextInput
          label="Username"
          autoComplete="username"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={touched ? nameError : undefined}
        />
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="email"
          value={email}
          disabled={fixedEmail !== undefined}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={touched ? emailError : undefined}
        />
        <NewPasswordFields value={password} onChange={setPassword} showErrors={touched} />
        <Button type="submit" loading={mutation.isPending} fullWidth>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  )
}
