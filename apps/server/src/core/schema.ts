import type { Generated } from 'kysely'

/**
 * The database as Kysely sees it. Portable across SQLite and PostgreSQL: times are epoch
 * milliseconds (bigint), flags are 0/1 integers (SQLite cannot bind booleans).
 */
export interface Database {
  users: UsersTable
  sessions: SessionsTable
  tokens: TokensTable
  signin_failures: SigninFailuresTable
  settings: SettingsTable
  mail_tokens: MailTokensTable
  cli_logins: CliLoginsTable
  invitations: InvitationsTable
  // shell
  user_local_storage: UserLocalStorageTable
  reverse_proxies: ReverseProxiesTable
}

export interface InvitationsTable {
  key_hash: string
  email: string
  admin: number
  invited_by: number | null
  created_at: number
  expires_at: number
  used_at: number | null
}

export interface CliLoginsTable {
  session_hash: string
  created_at: number
  expires_at: number
  approved_by: number | null
  tokens_sealed: string | null
}

export interface MailTokensTable {
  key_hash: string
  user_id: number
  purpose: 'reset'
  created_at: number
  expires_at: number
  used_at: number | null
}

export interface SettingsTable {
  key: string
  /** JSON */
  value: string
  updated_at: number
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
  mfa_secret_encrypted: string | null
  mfa_enroll_secret_encrypted: string | null
  mfa_last_step: number | null
  mfa_required: Generated<number>
  password_changed_at: number | null
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
  mfa_pending: Generated<number>
  mfa_failures: Generated<number>
}

/** refresh tokens only buy new access tokens: they are never accepted as credentials. */
export type TokenKind = 'access' | 'api_key' | 'refresh'

export interface TokensTable {
  id: string
  user_id: number
  kind: TokenKind
  secret_hash: string
  secret_encrypted: string | null
  description: string | null
  created_at: number
  expires_at: number | null
  last_used_at: number | null
}

export interface SigninFailuresTable {
  /** `user:<name>` or `ip:<address>` */
  key: string
  failures: number
  first_failure_at: number
  locked_until: number | null
}

// shell: per-user console state and reverse proxy configurations
export interface UserLocalStorageTable {
  user_id: number
  key: string
  value: string
  updated_at: number
}

export interface ReverseProxiesTable {
  key: string
  /** JSON of the ReverseProxy contract */
  config: string
  created_at: number
  updated_at: number
}
