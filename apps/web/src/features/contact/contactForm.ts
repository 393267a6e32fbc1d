import type { ContactRequest } from '@trove/contracts/contact'
import {
  CONTEXT_HELP_OPTION,
  type ContactContext,
  type ContactField,
  type ContactFormValues,
  contactFieldErrors,
} from '@trove/contracts/contactConstants'

/** The empty form of a context: its help option chosen when it asks for one. */
export const emptyContactForm = (context: ContactContext): ContactFormValues => ({
  firstName: '',
  lastName: '',
  country: '',
  email: '',
  helpOption: CONTEXT_HELP_OPTION[context] ?? '',
  optionalComment: '',
})

/** The errors to show: a field's once it was left (or a send was tried), so an untouched form is quiet. */
export function shownErrors(
  values: ContactFormValues,
  touched: ReadonlySet<ContactField>,
): Partial<Record<ContactField, string>> {
  const errors = contactFieldErrors(values)
  return Object.fromEntries(Object.entries(errors).filter(([field]) => touched.has(field as ContactField)))
}

/** The call's body (shell §3), the marketing key carried along when the link had one. */
export function contactRequestOf(
  values: ContactFormValues,
  context: ContactContext,
  marketoDataKey: string | undefined,
): ContactRequest {
  if (!values.helpOption) throw new Error('the form is not valid')
  const comment = values.optionalComment.trim()
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    country: values.country.trim(),
    email: values.email.trim(),
    helpOption: values.helpOption,
    ...(comment ? { optionalComment: comment } : {}),
    ...(marketoDataKey ? { marketoDataKey } : {}),
    context,
  }
}
