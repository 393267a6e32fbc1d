import { format, Messages } from './messages.js'

// The contact-us form (shell §2.7, §3, §4.7, §9) without zod: the console validates with these
// rules as the user types, and the server's schema (contact.ts) is built from the same ones.

/** The console's paths, after /ui/api/v1 (the submit path is the one shell §7.2 gives). */
export const CONTACT_PATHS = {
  submit: '/marketing/contact',
  requests: '/ui/admin/contact/requests',
  settings: '/ui/admin/configuration/contact',
} as const

/**
 * What became of a request's mail: sent; failed (the mail server refused or could not be
 * reached); unsent (no mail server or no recipient configured); pending while it is being sent.
 */
export const CONTACT_DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'unsent'] as const
export type ContactDeliveryStatus = (typeof CONTACT_DELIVERY_STATUSES)[number]

/** Shell §9: the help options, as sent and stored. */
export const HELP_OPTIONS = ['request demo', 'technical support', 'request trial extension', 'contact sales'] as const
export type HelpOption = (typeof HELP_OPTIONS)[number]

export const HELP_OPTION_LABELS: Record<HelpOption, string> = {
  'request demo': 'Request a demo',
  'technical support': 'Technical support',
  'request trial extension': 'Request a trial extension',
  'contact sales': 'Contact sales',
}

/** Shell §9: the contexts the dialog opens with (`contactUsContext` in the query string). */
export const CONTACT_CONTEXTS = [
  'contact us',
  'request demo toolbar',
  'trial extension',
  'demo tour',
  'demo get started',
] as const
export type ContactContext = (typeof CONTACT_CONTEXTS)[number]

export const isContactContext = (value: unknown): value is ContactContext =>
  typeof value === 'string' && (CONTACT_CONTEXTS as readonly string[]).includes(value)

/** The help option a context starts with (the spec is silent: the one the context asks for, if any). */
export const CONTEXT_HELP_OPTION: Record<ContactContext, HelpOption | null> = {
  'contact us': null,
  'request demo toolbar': 'request demo',
  'trial extension': 'request trial extension',
  'demo tour': 'request demo',
  'demo get started': 'request demo',
}

/** Field lengths (the spec gives none): names and country 100, an address 320 (RFC 5321), a comment 2000. */
export const CONTACT_LIMITS = {
  nameMax: 100,
  countryMax: 100,
  emailMax: 320,
  commentMax: 2000,
  marketoDataKeyMax: 200,
} as const

/**
 * An e-mail address: one @, no spaces or angle brackets, a dotted domain. Deliberately simple
 * (what a form can check); the mail server has the last word.
 */
export const EMAIL_PATTERN = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]+$/

export interface ContactFormValues {
  firstName: string
  lastName: string
  country: string
  email: string
  helpOption: HelpOption | ''
  optionalComment: string
}
export type ContactField = keyof ContactFormValues

const tooLong = (value: string, max: number) => value.trim().length > max

/** Each field's error, or nothing: the rules the server's schema applies too. */
export function contactFieldErrors(v: ContactFormValues): Partial<Record<ContactField, string>> {
  const errors: Partial<Record<ContactField, string>> = {}
  const required = (field: 'firstName' | 'lastName' | 'country', max: number) => {
    if (!v[field].trim()) errors[field] = Messages.fieldMandatory
    else if (tooLong(v[field], max)) errors[field] = `At most ${max} characters`
  }
  required('firstName', CONTACT_LIMITS.nameMax)
  required('lastName', CONTACT_LIMITS.nameMax)
  required('country', CONTACT_LIMITS.countryMax)
  const email = v.email.trim()
  if (!email) errors.email = Messages.fieldMandatory
  else if (email.length > CONTACT_LIMITS.emailMax || !EMAIL_PATTERN.test(email)) errors.email = Messages.invalidEmail
  if (!v.helpOption) errors.helpOption = Messages.fieldMandatory
  if (tooLong(v.optionalComment, CONTACT_LIMITS.commentMax))
    errors.optionalComment = format(Messages.commentTooLong, { max: CONTACT_LIMITS.commentMax })
  return errors
}
