import crypto from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import { conflict, forbidden, HttpError } from '../../core/errors.js'
import { mailBaseUrl, sendMail } from '../../core/mail.js'
import { hashPassword } from '../../core/passwords.js'
import type { Database } from '../../core/schema.js'
import type { SecretBox } from '../../core/secretBox.js'
import { getSetting } from '../../core/settings.js'
import { findUserByName, insertUser, type UserRow } from '../users/repo.js'

export const REGISTRATION_SETTING = 'security.selfRegistration'
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000
export const REGISTRATION_CLOSED = 'Registration is not open on this server: ask an administrator for an invitation'
export const INVALID_INVITATION = 'This invitation is not valid: it was used, has expired, or never existed'

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex')

async function createAccount(
  db: Kysely<Database>,
  input: { name: string; email: string; password: string; admin: boolean },
): Promise<UserRow> {
  if (await findUserByName(db, input.name)) throw conflict(`A user named ${input.name} already exists`)
  await insertUser(db, {
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password),
    admin: input.admin,
  })
  const user = await findUserByName(db, input.name)
  if (!user) throw new HttpError(500, 'The account was not created')
  return user
}

/** Self-registration, open only when an administrator turned it on. */
export async function register(db: Kysely<Database>, input: { name: string; email: string; password: string }): Promise<UserRow> {
  if (!(await getSetting(db, REGISTRATION_SETTING, false))) throw forbidden(REGISTRATION_CLOSED)
  return createAccount(db, { ...input, admin: false })
}

/** Mails an invitation link (valid 7 days, once) to join as a user or an administrator. */
export async function invite(
  db: Kysely<Database>,
  box: SecretBox,
  log: FastifyBaseLogger,
  input: { email: string; admin: boolean; invitedBy: { id: number; name: string }; fallbackBaseUrl: string | undefined },
): Promise<void> {
  const key = crypto.randomBytes(32).toString('base64url')
  const now = Date.now()
  await db
    .insertInto('invitations')
    .values({
      key_hash: sha256(key),
      email: input.email,
      admin: input.admin ? 1 : 0,
      invited_by: input.invitedBy.id,
      created_at: now,
      expires_at: now + INVITATION_LIFETIME_MS,
      used_at: null,
    })
    .execute()
  const base = (await mailBaseUrl(db, input.fallbackBaseUrl)) ?? ''
  await sendMail(db, box, {
    to: input.email,
    subject: `${input.invitedBy.name} invites you to Trove`,
    text: `${input.invitedBy.name} invites you to join Trove${input.admin ? ' as an administrator' : ''}.\n\nChoose your user name and password here within 7 days:\n${base}/ui/login/invitation?token=${key}\n`,
  })
  log.info({ invitedBy: input.invitedBy.name, admin: input.admin }, 'invitation sent')
}

export async function liveInvitation(db: Kysely<Database>, token: string, now = Date.now()) {
  const row = await db.selectFrom('invitations').selectAll().where('key_hash', '=', sha256(token)).executeTakeFirst()
  if (!row || row.used_at !== null || row.expires_at <= now) throw new HttpError(400, INVALID_INVITATION)
  return row
}

/** Accepts an invitation: the account is made with the invited address, and the link is spent. */
export async function acceptInvitation(
  db: Kysely<Database>,
  token: string,
  input: { name: string; password: string },
): Promise<UserRow> {
  const invitation = await liveInvitation(db, token)
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('invitations')
      .set({ used_at: Date.now() })
      .where('key_hash', '=', invitation.key_hash)
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (Number(spent.numUpdatedRows) !== 1) throw new HttpError(400, INVALID_INVITATION)
    return createAccount(trx, {
      name: input.name,
      email: invitation.email,
      password: input.password,
      admin: Boolean(invitation.admin),
    })
  })
}
