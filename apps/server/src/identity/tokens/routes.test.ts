import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../../test/clients.js'
import { ADMIN_PASSWORD, createTestApp, type Session, signIn, type TestApp } from '../../../test/testApp.js'
import { SCOPE_REFUSED } from '../../core/access.js'
import { hashPassword } from '../../core/passwords.js'
import { insertUser } from '../users/repo.js'
import { TOKEN_PATTERN } from '../users/tokenRepo.js'
import { REAUTH_REQUIRED } from './service.js'

let t: TestApp
let admin: Session
const secrets: string[] = []
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
  await insertUser(t.app.db.kysely, {
    name: 'alice',
    email: null,
    passwordHash: await hashPassword('alice-password'),
    admin: false,
  })
})
afterAll(() => t.close())

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`
const asSession = (s: Session) => ({ cookie: s.cookie, 'x-csrf-token': s.csrf })
const listTokens = (headers: Record<string, string>) =>
  t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/userIdentifyToken', headers })

async function createToken(headers: Record<string, string>, name = 'admin', body: object = { expiresIn: 600 }) {
  const res = await t.fastify.inject({ method: 'POST', url: `/ui/api/v1/ui/userIdentifyToken/${name}`, headers, payload: body })
  if (res.statusCode === 200) secrets.push(res.json().access_token)
  return res
}

describe('access tokens', () => {
  it('are shown once, stored only as a hash, and accepted as Bearer', async () => {
    const res = await createToken(asSession(admin), 'admin', { expiresIn: 600, description: 'CI' })
    expect(res.statusCode).toBe(200)
    const created = res.json()
    expect(created).toMatchObject({ token_type: 'Bearer', expires_in: 600, username: 'admin' })
    expect(created.access_token).toMatch(TOKEN_PATTERN)

    const rows = await t.app.db.kysely.selectFrom('tokens').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain(created.access_token)

    const list = await listTokens({ authorization: `Bearer ${created.access_token}` })
    expect(list.statusCode).toBe(200)
    const mine = list.json().find((tk: { id: string }) => tk.id === created.token_id)
    expect(mine).toMatchObject({ description: 'CI' })
    expect(mine.lastUsedAt).toBeGreaterThan(0)
    expect(Math.abs(mine.expiresAt - (Date.now() + 600_000))).toBeLessThan(10_000)
  })

  it('are accepted as the password of Basic auth, for their owner only', async () => {
    const { access_token } = (await createToken(asSession(admin))).json()
    expect((await listTokens({ authorization: basic('admin', access_token) })).statusCode).toBe(200)
    expect((await listTokens({ authorization: basic('alice', access_token) })).statusCode).toBe(401)
  })

  it('need no CSRF token: browsers do not send Authorization headers by themselves', async () => {
    const { access_token } = (await createToken(asSession(admin))).json()
    const res = await listTokens({ authorization: `Bearer ${access_token}` })
    expect(res.statusCode).toBe(200)
  })

  it('cannot mint tokens, whatever their scope: only a session or the password makes one', async () => {
    const { access_token } = (await createToken(asSession(admin))).json()
    const res = await createToken({ authorization: `Bearer ${access_token}` })
    expect(res.statusCode).toBe(403)
    expect(res.json().errors[0].message).toBe('A token cannot create access tokens: sign in, or send the password')
    const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`
    expect((await createToken({ authorization: basic })).statusCode).toBe(200)
  })

  it('stop working when expired or revoked', async () => {
    const first = (await createToken(asSession(admin))).json()
    await t.app.db.kysely
      .updateTable('tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', first.token_id)
      .execute()
    expect((await listTokens({ authorization: `Bearer ${first.access_token}` })).statusCode).toBe(401)

    const second = (await createToken(asSession(admin))).json()
    const revoke = await t.fastify.inject({
      method: 'DELETE',
      url: `/ui/api/v1/ui/userIdentifyToken/id/${second.token_id}`,
      headers: { authorization: `Bearer ${second.access_token}` },
    })
    expect(revoke.statusCode).toBe(204)
    expect((await listTokens({ authorization: `Bearer ${second.access_token}` })).statusCode).toBe(401)
    const again = await t.fastify.inject({
      method: 'DELETE',
      url: `/ui/api/v1/ui/userIdentifyToken/id/${second.token_id}`,
      headers: asSession(admin),
    })
    expect(again.statusCode).toBe(404)
  })

  it('can be made for another user by an admin only', async () => {
    const forAlice = await createToken(asSession(admin), 'alice')
    expect(forAlice.statusCode).toBe(200)
    expect(forAlice.json().username).toBe('alice')
    const alice = await signIn(t.fastify, 'alice', 'alice-password')
    const forAdmin = await createToken(asSession(alice), 'admin')
    expect(forAdmin.statusCode).toBe(403)
    expect((await createToken(asSession(admin), 'nobody')).statusCode).toBe(404)
  })

  it('reject a lifetime out of bounds with 400 naming the field', async () => {
    const res = await createToken(asSession(admin), 'admin', { expiresIn: 5 })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/body\.expiresIn/)
  })

  it('answer an unknown or malformed secret with 401', async () => {
    expect((await listTokens({ authorization: 'Bearer trove_at_nope' })).statusCode).toBe(401)
    expect((await listTokens({ authorization: 'Basic !!!' })).statusCode).toBe(401)
  })
})

describe('a password in Basic auth', () => {
  it('signs the call in, and a wrong one is refused like a wrong sign-in', async () => {
    expect((await listTokens({ authorization: basic('alice', 'alice-password') })).statusCode).toBe(200)
    const wrong = await listTokens({ authorization: basic('alice', 'wrong') })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().errors[0].message).toBe('Incorrect user name or password')
  })
})

describe('the API key', () => {
  const url = '/ui/api/v1/ui/userApiKey'
  const reauth = (s: Session, password = ADMIN_PASSWORD) => ({ ...asSession(s), authorization: basic('admin', password) })

  it('needs the password again to be created or shown', async () => {
    const none = await t.fastify.inject({ method: 'POST', url, headers: asSession(admin) })
    expect(none.statusCode).toBe(401)
    expect(none.json().errors[0].message).toBe(REAUTH_REQUIRED)
    const wrong = await t.fastify.inject({ method: 'POST', url, headers: reauth(admin, 'nope') })
    expect(wrong.statusCode).toBe(401)
  })

  it('is created once, shown again on request, regenerated, and revoked', async () => {
    const created = await t.fastify.inject({ method: 'POST', url, headers: reauth(admin) })
    expect(created.statusCode).toBe(200)
    const key = created.json().apiKey as string
    secrets.push(key)
    expect(key).toMatch(TOKEN_PATTERN)
    expect((await t.fastify.inject({ method: 'POST', url, headers: reauth(admin) })).statusCode).toBe(409)

    const shown = await t.fastify.inject({ method: 'GET', url: `${url}/admin`, headers: reauth(admin) })
    expect(shown.json()).toEqual({ apiKey: key })
    const row = await t.app.db.kysely.selectFrom('tokens').selectAll().where('kind', '=', 'api_key').executeTakeFirstOrThrow()
    expect(row.secret_encrypted).not.toContain(key)
    expect((await listTokens({ authorization: `Bearer ${key}` })).statusCode).toBe(200)

    const regenerated = await t.fastify.inject({ method: 'PUT', url, headers: reauth(admin) })
    const newKey = regenerated.json().apiKey as string
    secrets.push(newKey)
    expect(newKey).not.toBe(key)
    expect((await listTokens({ authorization: `Bearer ${key}` })).statusCode).toBe(401)
    expect((await listTokens({ authorization: basic('admin', newKey) })).statusCode).toBe(200)

    expect((await t.fastify.inject({ method: 'DELETE', url, headers: asSession(admin) })).statusCode).toBe(204)
    expect((await listTokens({ authorization: `Bearer ${newKey}` })).statusCode).toBe(401)
    const gone = await t.fastify.inject({ method: 'GET', url: `${url}/admin`, headers: reauth(admin) })
    expect(gone.json()).toEqual({ apiKey: null })
  })

  it('cannot be shown for someone else', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: `${url}/alice`, headers: reauth(admin) })
    expect(res.statusCode).toBe(403)
  })
})

describe('callers cached by the node', () => {
  const setAlice = (body: object) =>
    t.fastify.inject({ method: 'PUT', url: '/ui/api/v1/ui/admin/users/alice', headers: asSession(admin), payload: body })

  it('stop working at once when their user is disabled, and work again when enabled', async () => {
    const { access_token } = (await createToken(asSession(admin), 'alice')).json()
    const alice = await signIn(t.fastify, 'alice', 'alice-password')
    // Used twice: the second answer comes from the node's caller cache.
    for (let i = 0; i < 2; i++) {
      expect((await listTokens({ authorization: `Bearer ${access_token}` })).statusCode).toBe(200)
      expect((await listTokens(asSession(alice))).statusCode).toBe(200)
    }
    expect((await setAlice({ disabled: true })).statusCode).toBe(200)
    expect((await listTokens({ authorization: `Bearer ${access_token}` })).statusCode).toBe(401)
    expect((await listTokens({ authorization: basic('alice', access_token) })).statusCode).toBe(401)
    expect((await listTokens(asSession(alice))).statusCode).toBe(401)
    expect((await setAlice({ disabled: false })).statusCode).toBe(200)
    expect((await listTokens({ authorization: `Bearer ${access_token}` })).statusCode).toBe(200)
  })

  it('see a change of the admin flag at once', async () => {
    const { access_token } = (await createToken(asSession(admin), 'alice')).json()
    const adminOnly = () =>
      t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/admin/users', headers: { authorization: `Bearer ${access_token}` } })
    expect((await adminOnly()).statusCode).toBe(403)
    expect((await setAlice({ admin: true })).statusCode).toBe(200)
    expect((await adminOnly()).statusCode).toBe(200)
    expect((await setAlice({ admin: false })).statusCode).toBe(200)
    expect((await adminOnly()).statusCode).toBe(403)
  })
})

describe('the scope of an access token', () => {
  const repoHeaders = (secret: string) => ({ authorization: `Bearer ${secret}` })
  const deploy = (secret: string, repo: string, file: string) =>
    t.fastify.inject({ method: 'PUT', url: `/artifactory/${repo}/${file}`, headers: repoHeaders(secret), payload: 'hello' })
  const scoped = async (scope: string) => {
    const res = await createToken(asSession(admin), 'admin', { expiresIn: 600, scope })
    expect(res.statusCode).toBe(200)
    expect(res.json().scope).toBe(scope)
    return res.json().access_token as string
  }

  beforeAll(async () => {
    await createRepo(t.fastify, admin, 'scope-local', { rclass: 'local', packageType: 'generic' })
    await createRepo(t.fastify, admin, 'scope-docker', { rclass: 'local', packageType: 'docker' })
  })

  it('is full by default, shown in the list, and a bad one is refused naming the field', async () => {
    const { token_id, scope } = (await createToken(asSession(admin))).json()
    expect(scope).toBe('full')
    const readId = (await createToken(asSession(admin), 'admin', { expiresIn: 600, scope: 'read' })).json().token_id
    const list = (await listTokens(asSession(admin))).json() as { id: string; scope: string }[]
    expect(list.find((tk) => tk.id === token_id)?.scope).toBe('full')
    expect(list.find((tk) => tk.id === readId)?.scope).toBe('read')
    const bad = await createToken(asSession(admin), 'admin', { expiresIn: 600, scope: 'everything' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toMatch(/body\.scope/)
  })

  it('read: reads what the owner may read and changes nothing, not even to buy a wider token', async () => {
    const full = await scoped('full')
    expect((await deploy(full, 'scope-local', 'a.txt')).statusCode).toBe(201)
    const read = await scoped('read')
    const got = await t.fastify.inject({ method: 'GET', url: '/artifactory/scope-local/a.txt', headers: repoHeaders(read) })
    expect(got.statusCode).toBe(200)
    expect(got.body).toBe('hello')
    expect((await deploy(read, 'scope-local', 'b.txt')).statusCode).toBe(403)
    const actions = await t.fastify.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/access/repositories/scope-local/actions',
      headers: repoHeaders(read),
    })
    expect(actions.json().actions).toEqual(['read'])
    // The owner is an admin: the token reads admin screens but changes nothing there or on the account.
    expect(
      (await t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/admin/users', headers: repoHeaders(read) })).statusCode,
    ).toBe(200)
    const newUser = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/users',
      headers: repoHeaders(read),
      payload: { name: 'scope-user', password: 'scope-password' },
    })
    expect(newUser.statusCode).toBe(403)
    expect(newUser.json().errors[0].message).toBe(SCOPE_REFUSED.replace('{scope}', 'read'))
    const wider = await createToken(repoHeaders(read), 'admin', { expiresIn: 600, scope: 'full' })
    expect(wider.statusCode).toBe(403)
    const key = await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/userApiKey',
      headers: { authorization: `Bearer ${read}` },
    })
    expect(key.statusCode).toBe(403)
  })

  it('deploy: reads and deploys, but neither overwrites, deletes nor manages', async () => {
    const token = await scoped('deploy')
    expect((await deploy(token, 'scope-local', 'c.txt')).statusCode).toBe(201)
    // Overwriting needs delete/overwrite.
    const again = await deploy(token, 'scope-local', 'c.txt')
    expect(again.statusCode).toBe(409)
    expect(again.json().errors[0].message).toMatch(/needs the delete permission/)
    const removed = await t.fastify.inject({
      method: 'DELETE',
      url: '/artifactory/scope-local/c.txt',
      headers: repoHeaders(token),
    })
    expect(removed.statusCode).toBe(403)
    const actions = await t.fastify.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/access/repositories/scope-local/actions',
      headers: repoHeaders(token),
    })
    expect(actions.json().actions).toEqual(['read', 'annotate', 'deploy'])
  })

  it('stays with the registry token a Docker client buys with it', async () => {
    const pushStatus = async (secret: string) => {
      const issued = await t.fastify.inject({
        method: 'GET',
        url: '/v2/token?service=trove&scope=repository:scope-docker/hello:pull,push',
        headers: { authorization: basic('admin', secret) },
      })
      expect(issued.statusCode).toBe(200)
      const bearer = issued.json().token as string
      const pull = await t.fastify.inject({
        method: 'GET',
        url: '/v2/scope-docker/hello/tags/list',
        headers: { authorization: `Bearer ${bearer}` },
      })
      expect(pull.statusCode).not.toBe(401)
      expect(pull.statusCode).not.toBe(403)
      const started = await t.fastify.inject({
        method: 'POST',
        url: '/v2/scope-docker/hello/blobs/uploads/',
        headers: { authorization: `Bearer ${bearer}` },
      })
      return started.statusCode
    }
    expect(await pushStatus(await scoped('full'))).toBe(202)
    expect(await pushStatus(await scoped('deploy'))).toBe(202)
    expect([401, 403]).toContain(await pushStatus(await scoped('read')))
  })
})

describe('the logs', () => {
  it('never carry a token or a password', async () => {
    await t.stop()
    const log = fs.readFileSync(path.join(t.dataDir, 'logs', 'trove.log'), 'utf8')
    expect(log).toContain('access token created')
    expect(secrets.length).toBeGreaterThan(5)
    for (const secret of [...secrets, ADMIN_PASSWORD, 'alice-password']) expect(log).not.toContain(secret)
    expect(log).not.toMatch(/trove_a[tk]_[A-Za-z0-9_-]{43}/)
  })
})
