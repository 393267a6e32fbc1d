import type { MailSettings } from '@trove/contracts/passwords'
import type { Kysely } from 'kysely'
import nodemailer from 'nodemailer'
import { HttpError } from './errors.js'
import type { Database } from './schema.js'
import type { SecretBox } from './secretBox.js'
import { getSetting, setSetting } from './settings.js'

const KEY = 'mail'

/** Stored form: the password sealed. */
type StoredMail = Omit<MailSettings, 'password'> & { passwordSealed?: string | undefined }

export const MAIL_NOT_CONFIGURED = "Email wasn't sent: no mail server is configured"

export async function readMailSettings(db: Kysely<Database>): Promise<StoredMail | null> {
  return getSetting<StoredMail | null>(db, KEY, null)
}

/** Saves the mail settings; a password left out keeps the one stored. */
export async function writeMailSettings(db: Kysely<Database>, box: SecretBox, input: MailSettings): Promise<StoredMail> {
  const previous = await readMailSettings(db)
  const { password, ...rest } = input
  const stored: StoredMail = { ...rest, passwordSealed: password !== undefined ? box.seal(password) : previous?.passwordSealed }
  await setSetting(db, KEY, stored)
  return stored
}

export interface Mail {
  to: string
  subject: string
  text: string
  /** Where a reply goes, when not to the sender. */
  replyTo?: string
}

/** Sends one mail through the configured server; throws when there is none or it refuses. */
export async function sendMail(db: Kysely<Database>, box: SecretBox, mail: Mail): Promise<void> {
  const settings = await readMailSettings(db)
  if (!settings?.enabled) throw new HttpError(503, MAIL_NOT_CONFIGURED)
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.username
      ? { user: settings.username, pass: settings.passwordSealed ? box.open(settings.passwordSealed) : '' }
      : undefined,
    connectionTimeout: 10_000,
  })
  try {
    await transport.sendMail({ from: settings.from, to: mail.to, replyTo: mail.replyTo, subject: mail.subject, text: mail.text })
  } finally {
    transport.close()
  }
}

/** The base URL for links in mails. */
export async function mailBaseUrl(db: Kysely<Database>, fallback: string | undefined): Promise<string | undefined> {
  return (await readMailSettings(db))?.baseUrl?.replace(/\/+$/, '') ?? fallback
}
