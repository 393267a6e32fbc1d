import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { hashPassword } from '../../core/passwords.js'
import type { Database } from '../../core/schema.js'
import { countUsers, insertUser } from './repo.js'

export const FIRST_ADMIN_NAME = 'admin'

export interface FirstAdmin {
  name: string
  /** Set only when Trove made the password up: it is shown once and written to passwordFile. */
  generatedPassword?: string
  passwordFile?: string
}

/**
 * On a new database, creates the first administrator. The password is the configured one, or a
 * random one written to `<data dir>/initial-admin-password` (mode 0600) for the operator to read.
 * Returns null when users already exist.
 */
export async function ensureFirstAdmin(
  db: Kysely<Database>,
  options: { dataDir: string; adminPassword: string | undefined },
): Promise<FirstAdmin | null> {
  if ((await countUsers(db)) > 0) return null
  const password = options.adminPassword ?? crypto.randomBytes(18).toString('base64url')
  await insertUser(db, { name: FIRST_ADMIN_NAME, email: null, passwordHash: await hashPassword(password), admin: true })
  if (options.adminPassword) return { name: FIRST_ADMIN_NAME }
  const passwordFile = path.join(options.dataDir, 'initial-admin-password')
  fs.mkdirSync(options.dataDir, { recursive: true })
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 })
  fs.chmodSync(passwordFile, 0o600)
  return { name: FIRST_ADMIN_NAME, generatedPassword: password, passwordFile }
}
