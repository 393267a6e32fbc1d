import { Button, Group, Modal, Radio, Stack, Textarea, TextInput } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import {
  CONTACT_LIMITS,
  type ContactContext,
  type ContactField,
  type ContactFormValues,
  contactFieldErrors,
  HELP_OPTION_LABELS,
  HELP_OPTIONS,
  type HelpOption,
} from '@trove/contracts/contactConstants'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { notify } from '../../lib/notify'
import { sendContactRequest } from './api/contact'
import { contactRequestOf, emptyContactForm, shownErrors } from './contactForm'

export interface ContactUsDialogProps {
  context: ContactContext
  /** A marketing key the link carried, sent along with the form. */
  marketoDataKey?: string
  onClose: () => void
}

const ALL_FIELDS: ContactField[] = ['firstName', 'lastName', 'country', 'email', 'helpOption', 'optionalComment']

/**
 * The contact-us dialog (shell §2.7, §4.7): the form of §3 with the rules of §5; the main button
 * stays disabled until the form is valid. Sending shows the §8 toast for 5000 ms and always resets
 * the form; a success also closes the dialog.
 */
export function ContactUsDialog({ context, marketoDataKey, onClose }: ContactUsDialogProps) {
  const [values, setValues] = useState<ContactFormValues>(() => emptyContactForm(context))
  const [touched, setTouched] = useState<ReadonlySet<ContactField>>(new Set())
  const reset = () => {
    setValues(emptyContactForm(context))
    setTouched(new Set())
  }
  const send = useMutation({
    mutationFn: sendContactRequest,
    onSuccess: () => {
      notify({
        color: 'green',
        title: Messages.contactSuccessTitle,
        message: Messages.contactSuccessBody,
        autoClose: Limits.toastContactMs,
      })
      reset()
      onClose()
    },
    onError: () => {
      notify({
        color: 'red',
        title: Messages.contactFailureTitle,
        message: Messages.contactFailureBody,
        autoClose: Limits.toastContactMs,
      })
      reset()
    },
  })
  const valid = Object.keys(contactFieldErrors(values)).length === 0
  const errors = shownErrors(values, touched)
  const set = (field: ContactField) => (value: string) => setValues((v) => ({ ...v, [field]: value }))
  const leave = (field: ContactField) => () => setTouched((t) => new Set(t).add(field))
  const close = () => {
    reset()
    onClose()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(new Set(ALL_FIELDS))
    if (!valid || send.isPending) return
    send.mutate(contactRequestOf(values, context, marketoDataKey))
  }
  const text = (field: 'firstName' | 'lastName' | 'country' | 'email', label: string, autoComplete: string) => (
    <TextInput
      label={label}
      withAsterisk
      autoComplete={autoComplete}
      type={field === 'email' ? 'email' : 'text'}
      value={values[field]}
      onChange={(e) => set(field)(e.currentTarget.value)}
      onBlur={leave(field)}
      error={errors[field]}
    />
  )

  return (
    <Modal opened onClose={close} title="Contact Us" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate aria-label="Contact us">
        <Stack gap="sm">
          <Group grow align="flex-start">
            {text('firstName', 'First name', 'given-name')}
            {text('lastName', 'Last name', 'family-name')}
          </Group>
          {text('country', 'Country', 'country-name')}
          {text('email', 'E-mail', 'email')}
          <Radio.Group
            label="How can we help?"
            withAsterisk
            value={values.helpOption}
            onChange={(value) => {
              set('helpOption')(value as HelpOption)
              leave('helpOption')()
            }}
            error={errors.helpOption}
          >
            <Stack gap={6} mt={6}>
              {HELP_OPTIONS.map((option) => (
                <Radio key={option} value={option} label={HELP_OPTION_LABELS[option]} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label="Comment (optional)"
            description={`Up to ${CONTACT_LIMITS.commentMax} characters`}
            rows={4}
            value={values.optionalComment}
            onChange={(e) => {
              set('optionalComment')(e.currentTarget.value)
              leave('optionalComment')()
            }}
            error={errors.optionalComment}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid} loading={send.isPending}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
