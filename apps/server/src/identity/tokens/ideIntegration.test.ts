import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, grantRepos, listen, type RunResult } from '../../../test/clients.js'
import { type KeyPair, makeKeyPair, samlResponse } from '../../../test/samlIdp.js'
import {
  ADMIN_PASSWORD,
  createTestApp,
  type Session,
  sessionHeaders,
  signIn,
  type TestApp,
  tempDir,
} from '../../../test/testApp.js'
import { SSO_REAUTH_WINDOW_MS } from '../auth/reauth.js'
import { REAUTH_REQUIRED } from './service.js'

const UI = '/ui/api/v1/ui'
const IDP = 'https://idp.test'
const FILE = 'tools/1.0/hello.txt'
const CONTENT = 'hello from a generic repository\n'

/**
 * Packages §4 "IDE integration": the calls the console's IDE modal makes (set-me-up's base URL, the
 * profile with an empty password for a provider user, the API key) over real HTTP, and the key so
 * obtained used by the real npm client and curl against that base URL.
 */
describe('the IDE integration API key with npm and curl', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let work: string
  let idpKeys: KeyPair

  /** A client run with a clean environment: nothing of the npm running these tests leaks in. */
  const client = (cmd: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)))
    return new Promise((resolve) => {
      execFile(cmd, args, { cwd: work, env: { ...clean, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
      )
    })
  }
  const npmWhoami = (baseUrl: string, user: string, key: string) => {
    const registry = `${baseUrl}/api/npm/npm-local/`
    const npmrc = path.join(work, `${user}.npmrc`)
    fs.writeFileSync(npmrc, `registry=${registry}\n${registry.replace(/^https?:/, '')}:_authToken=${key}\n`)
    return client('npm', ['whoami'], {
      npm_config_userconfig: npmrc,
      npm_config_cache: path.join(work, 'npm-cache'),
      npm_config_update_notifier: 'false',
    })
  }
  const curl = (args: string[]) => client('curl', ['-sS', '-o', '-', '-w', '\n%{http_code}', ...args])
  /** A call as the browser makes it: the session cookie, and the CSRF token on changing calls. */
  const call = (url: string, headers: Record<string, string>, init: { method?: string; body?: unknown; basic?: string } = {}) =>
    fetch(`${base}${url}`, {
      method: init.method ?? 'GET',
      headers: {
        ...headers,
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.basic ? { authorization: `Basic ${Buffer.from(init.basic).toString('base64')}` } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    })

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    work = tempDir('trove-ide-')
    idpKeys = await makeKeyPair()
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'files', { rclass: 'local', packageType: 'generic' })
    const put = await t.fastify.inject({
      method: 'PUT',
      url: `/artifactory/files/${FILE}`,
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
      payload: CONTENT,
    })
    expect(put.statusCode).toBe(201)
    const saml = await t.fastify.inject({
      method: 'PUT',
      url: `${UI}/admin/security/saml`,
      headers: sessionHeaders(admin),
      payload: { enabled: true, loginUrl: `${IDP}/sso`, certificate: idpKeys.cert, idpIssuer: IDP, autoCreateUsers: true },
    })
    expect(saml.statusCode).toBe(200)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('a SAML user: profile with an empty password, key made and fetched; npm whoami and a curl download work with it', async () => {
    const signedIn = await fetch(`${base}${UI}/auth/saml/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        SAMLResponse: Buffer.from(
          samlResponse({
            user: 'dora',
            signer: idpKeys,
            issuer: IDP,
            acs: `${base}${UI}/auth/saml/acs`,
            audience: `${base}${UI}/auth/saml/metadata`,
          }),
        ).toString('base64'),
      }).toString(),
    })
    expect(signedIn.status).toBe(302)
    const pairs = signedIn.headers.getSetCookie().map((c) => c.split(';')[0] ?? '')
    const browser = {
      cookie: pairs.join('; '),
      'x-csrf-token': pairs.find((p) => p.startsWith('trove_csrf='))?.slice('trove_csrf='.length) ?? '',
    }
    await grantRepos(t.fastify, admin, 'dora-repos', { repos: ['npm-local', 'files'], user: 'dora', actions: ['read', 'deploy'] })

    const { baseUrl } = (await (await call(`${UI}/setMeUp`, browser)).json()) as { baseUrl: string }
    expect(baseUrl).toBe(base)
    const profile = await call(`${UI}/userProfile`, browser, { method: 'POST', body: { password: '' } })
    expect(profile.status).toBe(200)
    expect(await profile.json()).toMatchObject({ name: 'dora', realm: 'saml' })
    expect(await (await call(`${UI}/userApiKey/dora`, browser)).json()).toEqual({ apiKey: null })
    const made = await call(`${UI}/userApiKey`, browser, { method: 'POST' })
    expect(made.status).toBe(200)
    const { apiKey } = (await made.json()) as { apiKey: string }
    expect(apiKey).toMatch(/^trove_ak_/)
    expect(await (await call(`${UI}/userApiKey/dora`, browser)).json()).toEqual({ apiKey })

    const whoami = await npmWhoami(baseUrl, 'dora', apiKey)
    expect(whoami.stderr).toBe('')
    expect(whoami.stdout.trim()).toBe('dora')
    const download = await curl(['-u', `dora:${apiKey}`, `${baseUrl}/artifactory/files/${FILE}`])
    expect(download.stdout).toBe(`${CONTENT}\n200`)
    const bearer = await curl(['-H', `Authorization: Bearer ${apiKey}`, `${baseUrl}/artifactory/files/${FILE}`])
    expect(bearer.stdout).toBe(`${CONTENT}\n200`)
    expect((await curl([`${baseUrl}/artifactory/files/${FILE}`])).stdout).toMatch(/\n401$/)
    expect((await curl(['-u', `dora:${apiKey}x`, `${baseUrl}/artifactory/files/${FILE}`])).stdout).toMatch(/\n401$/)

    // An old provider sign-in no longer unlocks the key; the key itself keeps working.
    await t.app.db.kysely
      .updateTable('sessions')
      .set({ created_at: Date.now() - SSO_REAUTH_WINDOW_MS - 1000 })
      .where(
        'user_id',
        '=',
        (await t.app.db.kysely.selectFrom('users').select('id').where('name', '=', 'dora').executeTakeFirstOrThrow()).id,
      )
      .execute()
    expect((await call(`${UI}/userProfile`, browser, { method: 'POST', body: { password: '' } })).status).toBe(401)
    expect((await call(`${UI}/userApiKey/dora`, browser)).status).toBe(401)
    expect((await npmWhoami(baseUrl, 'dora', apiKey)).stdout.trim()).toBe('dora')
  }, 120_000)

  it('a user with a password: the key call needs it again in a Basic header; the key then works with npm and curl', async () => {
    const browser = sessionHeaders(admin)
    const without = await call(`${UI}/userApiKey/admin`, browser)
    expect(without.status).toBe(401)
    expect(((await without.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe(REAUTH_REQUIRED)
    expect((await call(`${UI}/userApiKey/admin`, browser, { basic: 'admin:wrong-password' })).status).toBe(401)
    const basic = `admin:${ADMIN_PASSWORD}`
    expect(await (await call(`${UI}/userApiKey/admin`, browser, { basic })).json()).toEqual({ apiKey: null })
    const { apiKey } = (await (await call(`${UI}/userApiKey`, browser, { method: 'POST', basic })).json()) as { apiKey: string }
    expect(await (await call(`${UI}/userApiKey/admin`, browser, { basic })).json()).toEqual({ apiKey })

    expect((await npmWhoami(base, 'admin', apiKey)).stdout.trim()).toBe('admin')
    expect((await curl(['-u', `admin:${apiKey}`, `${base}/artifactory/files/${FILE}`])).stdout).toBe(`${CONTENT}\n200`)
  }, 120_000)
})
