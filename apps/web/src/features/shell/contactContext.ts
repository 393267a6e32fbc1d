import { type ContactContext, isContactContext } from '@trove/contracts/contactConstants'
import { isTour, type ShellContext } from './model'

// Apart from model.ts: the contact constants load with the frame, not with the sign-in page.

/**
 * Shell §2.7: the context the contact-us dialog opens with: on a cloud trial or in the tour
 * environment, when the query's `contactUsContext` is a known context (§9); otherwise none.
 */
export function contactUsContextFor(search: Record<string, unknown>, c: ShellContext): ContactContext | null {
  if (!c.cloudTrial && !isTour(c)) return null
  return isContactContext(search.contactUsContext) ? search.contactUsContext : null
}
