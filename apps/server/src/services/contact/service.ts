import type { ContactAccepted, ContactRequest, ContactSettings } from '@trove/contracts/contact'
import { HELP_OPTION_LABELS } from '@trove/contracts/contactConstants'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import { readMailSettings, sendMail } from '../../core/mail.js'
import type { Database } from '../../core/schema.js'
import type { SecretBox } from '../../core/secretBox.js'
import { getSetting, setSetting } from '../../core/settings.js'
import { insertContactRequest, recordDelivery } from './repo.js'

/** The admin setting: where contact requests are mailed. */
export const CONTACT_SETTING = 'contact.recipient'

export const NO_MAIL_SERVER = 'No mail server is configured'
export const NO_RECIPIENT = 'No address to send contact requests to is set'

export async function readContactSettings(db: Kysely<Database>): Promise<ContactSettings> {
  return { recipient: await getSetting(db, CONTACT_SETTING, '') }
}

export async function writeContactSettings(db: Kysely<Database>, settings: ContactSettings): Promise<ContactSettings> {
  await setSetting(db, CONTACT_SETTING, settings.recipient)
  return settings
}

/** The mail an administrator receives for a request. */
export function contactMail(request: ContactRequest, userName: string | null) {
  const lines = [
    `${request.firstName} ${request.lastName} sent a contact request from Trove.`,
    '',
    `Help wanted: ${HELP_OPTION_LABELS[request.helpOption]}`,
    `Name: ${request.firstName} ${request.lastName}`,
    `E-mail: ${request.email}`,
    `Country: ${request.country}`,
    `Signed in as: ${userName ?? 'nobody'}`,
  ]
  if (request.context) lines.push(`Opened from: ${request.context}`)
  if (request.marketoDataKey) lines.push(`Campaign key: ${request.marketoDataKey}`)
  lines.push('', 'Comment:', request.optionalComment || '(none)', '')
  return {
    subject: `Contact request: ${HELP_OPTION_LABELS[request.helpOption]} (${request.firstName} ${request.lastName})`,
    text: lines.join('\n'),
    replyTo: request.email,
  }
}

/**
 * Keeps the request, then mails it to the address an admin set. The request is kept whatever
 * happens to the mail: without a mail server or a recipient it is `unsent`, a refusal or an
 * unreachable server makes it `failed`; either way the admin sees it in the list.
 */
export async function submitContactRequest(
  db: Kysely<Database>,
  box: SecretBox,
  log: FastifyBaseLogger,
  request: ContactRequest,
  userName: string | null,
): Promise<ContactAccepted> {
  const id = await insertContactRequest(db, request, userName, Date.now())
  const { recipient } = await readContactSettings(db)
  const mailServer = (await readMailSettings(db))?.enabled === true
  if (!recipient || !mailServer) {
    const error = mailServer ? NO_RECIPIENT : NO_MAIL_SERVER
    await recordDelivery(db, id, { status: 'unsent', recipient: recipient || null, error, at: Date.now() })
    log.warn({ contactRequest: id }, `contact request kept, not mailed: ${error}`)
    return { id, delivery: 'unsent' }
  }
  try {
    await sendMail(db, box, { to: recipient, ...contactMail(request, userName) })
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err)
    await recordDelivery(db, id, { status: 'failed', recipient, error, at: Date.now() })
    log.error({ err, contactRequest: id }, 'contact request kept, its mail failed')
    return { id, delivery: 'failed' }
  }
  await recordDelivery(db, id, { status: 'sent', recipient, error: null, at: Date.now() })
  return { id, delivery: 'sent' }
}
