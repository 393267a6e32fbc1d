import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

/**
 * Every sign-in and account call refuses a malformed body with 400 in the one error shape, naming
 * the field, and changes nothing. Table-driven: one row per call.
 */
let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
})
afterAll(() => t.close())

type Caller = 'anonymous' | 'admin'
interface Row {
  method: 'POST' | 'PUT'
  url: string
  caller: Caller
  body: unknown
  field: string
}

const AUTH = '/ui/api/v1/ui/auth'
const ADMIN = '/ui/api/v1/ui/admin'
const CLI = '/access/api/v2/authentication/jfrog_client_login'

const ROWS: Row[] = [
  { method: 'POST', url: `${AUTH}/login`, caller: 'anonymous', body: { user: 'admin', type: 'login' }, field: 'body.password' },
  {
    method: 'POST',
    url: `${AUTH}/login`,
    caller: 'anonymous',
    body: { user: 42, password: 'x', type: 'login' },
    field: 'body.user',
  },
  { method: 'POST', url: `${AUTH}/mfa/verify`, caller: 'anonymous', body: { otp: '' }, field: 'body.otp' },
  { method: 'POST', url: `${AUTH}/mfa/enroll`, caller: 'admin', body: {}, field: 'body.otp' },
  { method: 'POST', url: `${AUTH}/forgotPassword`, caller: 'anonymous', body: { user: '' }, field: 'body.user' },
  { method: 'POST', url: `${AUTH}/resetPassword?key=k`, caller: 'anonymous', body: { user: 'admin' }, field: 'body.password' },
  {
    method: 'POST',
    url: `${AUTH}/changePassword?prefix=changePassword`,
    caller: 'anonymous',
    body: { userName: 'admin', newPassword1: 'a-new-password' },
    field: 'body.oldPassword',
  },
  {
    method: 'POST',
    url: `${AUTH}/register`,
    caller: 'anonymous',
    body: { name: 'ok-name', password: 'long-enough' },
    field: 'body.email',
  },
  {
    method: 'POST',
    url: `${AUTH}/invitation?token=t`,
    caller: 'anonymous',
    body: { name: 'bad name!', password: 'long-enough' },
    field: 'body.name',
  },
  { method: 'POST', url: `${ADMIN}/invitations`, caller: 'admin', body: { email: 'not-an-address' }, field: 'body.email' },
  { method: 'PUT', url: `${ADMIN}/security/registration`, caller: 'admin', body: { enabled: 'yes' }, field: 'body.enabled' },
  { method: 'PUT', url: `${ADMIN}/security/mfa`, caller: 'admin', body: { required: 'yes' }, field: 'body.required' },
  { method: 'PUT', url: `${ADMIN}/security/passwordPolicy`, caller: 'admin', body: { expiryDays: -1 }, field: 'body.expiryDays' },
  {
    method: 'PUT',
    url: `${ADMIN}/configuration/mail`,
    caller: 'admin',
    body: { enabled: true, host: 'mail', port: 70000, secure: false, from: 'a@b.c' },
    field: 'body.port',
  },
  { method: 'POST', url: '/ui/api/v1/ui/userProfile', caller: 'admin', body: {}, field: 'body.password' },
  {
    method: 'PUT',
    url: '/ui/api/v1/ui/userProfile',
    caller: 'admin',
    body: { email: 'nope', password: ADMIN_PASSWORD },
    field: 'body.email',
  },
  {
    method: 'POST',
    url: '/ui/api/v1/ui/userIdentifyToken/admin',
    caller: 'admin',
    body: { expiresIn: 'soon' },
    field: 'body.expiresIn',
  },
  { method: 'POST', url: `${CLI}/request`, caller: 'anonymous', body: { session: 'short' }, field: 'body.session' },
  { method: 'POST', url: `${CLI}/response`, caller: 'admin', body: {}, field: 'body.session' },
  { method: 'POST', url: '/access/api/v1/tokens/refresh', caller: 'anonymous', body: {}, field: 'body.refresh_token' },
  { method: 'POST', url: `${ADMIN}/security/oauth`, caller: 'admin', body: { name: 'corp', type: 'oidc' }, field: 'body.type' },
  { method: 'PUT', url: `${ADMIN}/security/saml`, caller: 'admin', body: { enabled: 'yes' }, field: 'body.enabled' },
  {
    method: 'PUT',
    url: `${ADMIN}/security/loginScreen`,
    caller: 'admin',
    body: { autoRedirect: 'yes' },
    field: 'body.autoRedirect',
  },
]

/** Row counts of the tables these calls write, to show nothing was half-written. */
async function counts() {
  const db = t.app.db.kysely
  const tables = [
    'users',
    'sessions',
    'tokens',
    'invitations',
    'mail_tokens',
    'cli_logins',
    'oauth_providers',
    'settings',
  ] as const
  const out: Record<string, number> = {}
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    out[table] = Number(row.n)
  }
  return out
}

describe('malformed bodies', () => {
  it.each(ROWS)('$method $url ($field) → 400 naming the field', async (row) => {
    const before = await counts()
    const res = await t.fastify.inject({
      method: row.method,
      url: row.url,
      headers: row.caller === 'admin' ? sessionHeaders(admin) : {},
      payload: row.body as object,
    })
    expect(res.statusCode, res.body).toBe(400)
    const body = res.json()
    expect(body.errors).toHaveLength(1)
    expect(body.errors[0].status).toBe(400)
    expect(body.errors[0].message).toContain(row.field)
    expect(await counts()).toEqual(before)
  })
})

describe('passwords', () => {
  it('are stored as argon2id hashes with the parameters OWASP recommends', async () => {
    const row = await t.app.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('name', '=', 'admin')
      .executeTakeFirstOrThrow()
    // 19 MiB of memory, 2 iterations, 1 degree of parallelism.
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(row.password_hash).not.toContain(ADMIN_PASSWORD)
  })
})
