import { describe, expect, it } from 'vitest'
import { ContactRequest } from './contact.js'
import { type ContactFormValues, contactFieldErrors } from './contactConstants.js'
import { Messages } from './messages.js'

const good: ContactFormValues = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  country: 'United Kingdom',
  email: 'ada@example.com',
  helpOption: 'contact sales',
  optionalComment: '',
}

describe('the contact form rules', () => {
  const samples: [string, Partial<ContactFormValues>, Partial<Record<keyof ContactFormValues, string>>][] = [
    ['a complete form', {}, {}],
    ['no first name', { firstName: ' ' }, { firstName: Messages.fieldMandatory }],
    ['no country', { country: '' }, { country: Messages.fieldMandatory }],
    ['no help option', { helpOption: '' }, { helpOption: Messages.fieldMandatory }],
    ['no address', { email: '' }, { email: Messages.fieldMandatory }],
    ['an address without a dotted domain', { email: 'ada@example' }, { email: Messages.invalidEmail }],
    ['an address with a space', { email: 'ada l@example.com' }, { email: Messages.invalidEmail }],
    ['two @', { email: 'ada@x@example.com' }, { email: Messages.invalidEmail }],
    ['a comment of 2000 characters', { optionalComment: 'x'.repeat(2000) }, {}],
    [
      'a comment of 2001',
      { optionalComment: 'x'.repeat(2001) },
      { optionalComment: 'A comment can have at most 2000 characters' },
    ],
  ]

  it.each(samples)('%s: the console and the server agree', (_, change, errors) => {
    const values = { ...good, ...change }
    expect(contactFieldErrors(values)).toEqual(errors)
    const parsed = ContactRequest.safeParse({ ...values, helpOption: values.helpOption || undefined })
    expect(parsed.success).toBe(Object.keys(errors).length === 0)
    if (!parsed.success) {
      const [field, message] = Object.entries(errors)[0] ?? []
      expect(parsed.error.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual([field, message])
    }
  })
})
