import { Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { useInviteUser } from './api/invitations'
import { ErrorAlert } from './ErrorAlert'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Users › Invite by e-mail: the invitee gets a link to choose a name and password. */
export function InviteUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const invite = useInviteUser()
  const [email, setEmail] = useState('')
  const [admin, setAdmin] = useState(false)
  const [touched, setTouched] = useState(false)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const emailError = !email ? Messages.fieldMandatory : EMAIL.test(email) ? undefined : 'Enter an e-mail address'

  const close = () => {
    invite.reset()
    setEmail('')
    setAdmin(false)
    setTouched(false)
    setSentTo(null)
    onClose()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (emailError) return
    invite.mutate(
      { email, admin },
      {
        onSuccess: () => {
          setSentTo(email)
          setEmail('')
          setAdmin(false)
          setTouched(false)
        },
      },
    )
  }

  return (
    <Modal opened={opened} onClose={close} title="Invite a user by e-mail">
      <form onSubmit={submit} noValidate aria-label="Invite a user">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            The invitee gets a link, valid for 7 days and usable once, to choose a user name and a password.
          </Text>
          <ErrorAlert error={invite.error} />
          {sentTo && (
            <Text size="sm" c="green" role="status">
              Invitation sent to {sentTo}
            </Text>
          )}
          <TextInput
            label="E-mail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={touched ? emailError : undefined}
            data-autofocus
          />
          <Checkbox label="Invite as an administrator" checked={admin} onChange={(e) => setAdmin(e.currentTarget.checked)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Close
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
