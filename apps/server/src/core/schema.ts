import type { Generated } from 'kysely'

/**
 * The database as Kysely sees it. Portable across SQLite and PostgreSQL: times are epoch
 * milliseconds (bigint), flags are 0/1 integers (SQLite cannot bind booleans).
 */
export interface Database {
  users: UsersTable
  sessions: SessionsTable
}

export interface UsersTable {
  id: Generated<number>
  name: string
  email: string | null
  password_hash: string | null
  realm: string
  admin: number
  disabled: number
  created_at: number
  updated_at: number
}

export interface SessionsTable {
  /** sha256 of the cookie token: a stolen database does not yield usable cookies. */
  id: string
  user_id: number
  csrf_token: string
  remember_me: number
  created_at: number
  expires_at: number
  last_seen_at: number
  ip: string | null
  user_agent: string | null
}
