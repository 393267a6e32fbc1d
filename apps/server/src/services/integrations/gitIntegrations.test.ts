import fs from 'node:fs'
import path from 'node:path'
import { GIT_INTEGRATION_LIMITS } from '@trove/contracts/gitIntegrations'
import { Messages } from '@trove/contracts/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GitServer, startGitServer } from '../../../test/gitServer.js'
import {
  expectedApiCredential,
  expectedGitAuthorization,
  startRedirector,
  startVendor,
  type VendorName,
  type VendorStandIn,
} from '../../../test/gitVendors.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

const BASE = '/ui/api/v1/integration'
const VCS = '/ui/api/v1/xray/ui/vcs_integrations'

let t: TestApp
let admin: Session
let alice: Session

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, session = admin) =>
  t.fastify.inject({ method, url, headers: sessionHeaders(session), ...(payload ? { payload } : {}) })

async function waitForClones(key: string, count: number) {
  for (let i = 0; i < 200; i++) {
    const res = await call('GET', `${VCS}/${key}/selected`)
    const rows = res.json() as { status: string }[]
    if (rows.length === count && rows.every((r) => r.status !== 'pending')) return rows
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the clones did not finish')
}

beforeAll(async () => {
  t = await createTestApp({ TROVE_GIT_RETEST_INTERVAL_S: '0' })
  admin = await signIn(t.fastify)
  const created = await call('POST', '/ui/api/v1/ui/admin/users', {
    name: 'alice',
    password: 'alice-password-1',
    email: 'alice@example.com',
  })
  expect(created.statusCode).toBe(201)
  alice = await signIn(t.fastify, 'alice', 'alice-password-1')
})
afterAll(async () => {
  await t?.close()
})

const vendors: { vendor: VendorName; repos: string[] }[] = [
  { vendor: 'github', repos: ['octo/alpha', 'octo/beta'] },
  { vendor: 'gitlab', repos: ['group/alpha', 'group/beta'] },
  { vendor: 'bitbucket', repos: ['workspace/alpha', 'workspace/beta'] },
  { vendor: 'bitbucketServer', repos: ['PROJ/alpha', 'PROJ/beta'] },
]

describe.each(vendors)('$vendor', ({ vendor, repos }) => {
  const userName = `${vendor}-user`
  const token = `${vendor}-token-${'x'.repeat(20)}`
  let stand: VendorStandIn
  let git: GitServer
  const heads: Record<string, string> = {}
  // 52 repositories: more than one page of 50; the first two are real git repositories.
  const all = [
    ...repos,
    ...Array.from({ length: 50 }, (_, i) => `${repos[0]?.split('/')[0]}/filler-${String(i).padStart(2, '0')}`),
  ]
  const form = (over: Record<string, unknown> = {}) => ({
    integrationName: `${vendor} main`,
    userName,
    token,
    url: stand.url,
    vendorName: vendor,
    integrationType: 'git',
    ...over,
  })
  let key = ''

  beforeAll(async () => {
    git = await startGitServer(expectedGitAuthorization(vendor, userName, token))
    for (const r of repos) heads[r] = git.addRepository(r, { 'package.json': JSON.stringify({ name: r.replace('/', '-') }) })
    stand = await startVendor(vendor, { userName, token, repositories: all, cloneUrl: git.cloneUrl })
  })
  afterAll(async () => {
    await stand?.close()
    await git?.close()
  })

  it("passes the connection test with the vendor's answer, sending exactly the header the vendor documents", async () => {
    const res = await call('POST', `${BASE}/test`, form())
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ connected: true, vendorUser: userName })
    const expected = expectedApiCredential(vendor, userName, token)
    expect(stand.requests.at(-1)?.credential).toBe(expected.value)
  })

  it('fails the test with a token the vendor refuses, and stores nothing when asked to create with it', async () => {
    const test = await call('POST', `${BASE}/test`, form({ token: 'wrong-token' }))
    expect(test.statusCode).toBe(400)
    expect(test.json().errors[0].message).toBe(Messages.connectionTestFailed)
    const create = await call('POST', BASE, form({ token: 'wrong-token' }))
    expect(create.statusCode).toBe(400)
    expect(create.json().errors[0].message).toBe(Messages.connectionTestFailed)
    const list = await call('GET', `${BASE}/integrations/git`)
    expect(list.json().filter((i: { vendorName: string }) => i.vendorName === vendor)).toEqual([])
  })

  it('creates an integration, CONNECTED, whose token no answer carries', async () => {
    const res = await call('POST', BASE, form())
    expect(res.statusCode).toBe(201)
    key = res.json().data
    expect(key).toMatch(new RegExp(`^${vendor.toLowerCase()}-[0-9a-f]{12}$`))
    const answers = [
      await call('GET', `${BASE}/getIntegrations`),
      await call('GET', `${BASE}/integrations/git`),
      await call('GET', `${BASE}/integrations/1`),
      await call('GET', VCS),
    ]
    for (const a of answers) {
      expect(a.statusCode).toBe(200)
      expect(a.body).not.toContain(token)
    }
    const item = answers[0]?.json()[0].items.find((v: { name: string }) => v.name === vendor)
    expect(item).toMatchObject({ configured: true, connected: true })
    expect(item.integrations[0]).toMatchObject({
      key,
      name: `${vendor} main`,
      username: userName,
      url: stand.url,
      status: 'CONNECTED',
    })
    expect(answers[3]?.json()).toContainEqual(expect.objectContaining({ integration_id: key, vendor, status: 'CONNECTED' }))
    // The token rests sealed, not in the clear.
    const row = await t.app.db.kysely.selectFrom('git_integrations').selectAll().where('key', '=', key).executeTakeFirstOrThrow()
    expect(row.token_sealed).not.toContain(token)
  })

  it('lists the repositories the token sees, a vendor page at a time', async () => {
    const first = await call('GET', `${VCS}/${key}/repositories?page=1`)
    expect(first.statusCode).toBe(200)
    expect(first.json().repositories).toHaveLength(50)
    expect(first.json().nextPage).toBe(2)
    expect(first.json().repositories[0]).toMatchObject({ fullName: repos[0], cloneUrl: git.cloneUrl(repos[0] as string) })
    const second = await call('GET', `${VCS}/${key}/repositories?page=2`)
    expect(second.json().repositories).toHaveLength(2)
    expect(second.json().nextPage).toBeNull()
    const names = [...first.json().repositories, ...second.json().repositories].map((r: { fullName: string }) => r.fullName)
    expect(names.sort()).toEqual([...all].sort())
  })

  it('stores the selection and clones each repository with the real git client and the token', async () => {
    const res = await call('PUT', `${VCS}/${key}/selected`, { repositories: repos })
    expect(res.statusCode).toBe(200)
    expect(res.json().map((r: { fullName: string }) => r.fullName)).toEqual([...repos].sort())
    const rows = (await waitForClones(key, 2)) as { fullName: string; status: string; headCommit: string }[]
    for (const r of repos) {
      const row = rows.find((x) => x.fullName === r)
      expect(row).toMatchObject({ status: 'cloned', headCommit: heads[r] })
      const dir = path.join(t.dataDir, 'git', key, r.replace('/', '__'))
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))).toEqual({ name: r.replace('/', '-') })
      expect(fs.readFileSync(path.join(dir, '.git', 'HEAD'), 'utf8')).toContain('refs/heads/main')
    }
    expect(new Set(git.seen)).toEqual(new Set([expectedGitAuthorization(vendor, userName, token)]))
    // The token is not left in the clone's configuration.
    const config = fs.readFileSync(
      path.join(t.dataDir, 'git', key, (repos[0] as string).replace('/', '__'), '.git', 'config'),
      'utf8',
    )
    expect(config).not.toContain(token)
    const products = await call('GET', `${BASE}/integrations/git`)
    expect(products.json().find((i: { key: string }) => i.key === key).products).toEqual(['xray'])
  })

  it('deletes the integration with its clones', async () => {
    const res = await call('DELETE', `${BASE}/${key}`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ data: key })
    expect(fs.existsSync(path.join(t.dataDir, 'git', key))).toBe(false)
    expect((await call('GET', `${VCS}/${key}/selected`)).statusCode).toBe(404)
  })
})

describe('form rules', () => {
  let stand: VendorStandIn
  const token = 'gitlab-rules-token'
  const form = (over: Record<string, unknown> = {}) => ({
    integrationName: 'rules',
    userName: 'rules-user',
    token,
    url: stand.url,
    vendorName: 'gitlab',
    ...over,
  })
  beforeAll(async () => {
    stand = await startVendor('gitlab', {
      userName: 'rules-user',
      token,
      repositories: [],
      cloneUrl: (r) => `http://127.0.0.1:9/${r}`,
    })
  })
  afterAll(async () => stand?.close())

  it("answers the spec's required-field messages and names over-long fields", async () => {
    const missing = await call('POST', BASE, form({ userName: '', integrationName: '' }))
    expect(missing.statusCode).toBe(400)
    expect(missing.json().errors[0].message).toContain(Messages.userNameRequired)
    expect(missing.json().errors[0].message).toContain(Messages.integrationNameRequired)
    const noToken = await call('POST', BASE, form({ token: '' }))
    expect(noToken.statusCode).toBe(400)
    expect(noToken.json().errors[0].message).toBe(`token: ${Messages.tokenRequired}`)
    const long = await call('POST', BASE, form({ integrationName: 'n'.repeat(GIT_INTEGRATION_LIMITS.integrationNameMax + 1) }))
    expect(long.statusCode).toBe(400)
    expect(long.json().errors[0].message).toMatch(/integrationName/)
  })

  it('refuses a duplicate name as a field conflict, on create and on rename', async () => {
    const first = await call('POST', BASE, form())
    expect(first.statusCode).toBe(201)
    const other = await call('POST', BASE, form({ integrationName: 'rules two' }))
    expect(other.statusCode).toBe(201)
    const dup = await call('POST', BASE, form())
    expect(dup.statusCode).toBe(409)
    expect(dup.json().errors[0].message).toBe('integrationName: an integration named rules already exists')
    const rename = await call('PUT', `${BASE}/${other.json().data}`, form({ integrationName: 'rules', token: '' }))
    expect(rename.statusCode).toBe(409)
  })

  it('updates with the saved token when none is given, but never sends it to a new address', async () => {
    const key = (await call('GET', `${BASE}/integrations/git`)).json().find((i: { name: string }) => i.name === 'rules').key
    const renamed = await call(
      'PUT',
      `${BASE}/${key}`,
      form({ integrationName: 'rules renamed', token: '', integrationKey: key }),
    )
    expect(renamed.statusCode).toBe(200)
    expect(renamed.json()).toEqual({ data: key })
    const tested = await call('POST', `${BASE}/test`, form({ token: '', integrationKey: key }))
    expect(tested.json()).toEqual({ connected: true, vendorUser: 'rules-user' })
    const before = stand.requests.length
    const moved = await call('POST', `${BASE}/test`, form({ token: '', integrationKey: key, url: 'http://127.0.0.2:1' }))
    expect(moved.statusCode).toBe(400)
    expect(moved.json().errors[0].message).toBe(`token: ${Messages.tokenRequired}`)
    expect(stand.requests.length).toBe(before)
  })

  it('refuses vendor addresses that are not http(s) or lead to link-local and metadata addresses', async () => {
    for (const url of [
      'ftp://127.0.0.1/',
      'file:///etc/passwd',
      'http://169.254.169.254',
      'http://[fe80::1]:8080',
      'http://[::ffff:169.254.169.254]',
    ]) {
      const res = await call('POST', `${BASE}/test`, form({ url }))
      expect(res.statusCode, url).toBe(400)
      expect(res.json().errors[0].message, url).toMatch(/^url: /)
    }
    const redirector = await startRedirector('http://169.254.169.254/latest/meta-data/')
    try {
      const res = await call('POST', BASE, form({ integrationName: 'redirected', url: redirector.url }))
      expect(res.statusCode).toBe(400)
      expect(res.json().errors[0].message).toBe(
        'url: 169.254.169.254 resolves to 169.254.169.254, a link-local or metadata address',
      )
      expect(redirector.hits()).toBe(1)
      const names = (await call('GET', `${BASE}/integrations/git`)).json().map((i: { name: string }) => i.name)
      expect(names).not.toContain('redirected')
    } finally {
      await redirector.close()
    }
  })

  it('answers 403 to every integration call by someone who is not an administrator', async () => {
    const key = (await call('GET', `${BASE}/integrations/git`)).json()[0].key
    const calls: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', `${BASE}/getIntegrations`],
      ['GET', `${BASE}/integrations/git`],
      ['POST', `${BASE}/test`, form()],
      ['POST', BASE, form({ integrationName: 'alice' })],
      ['PUT', `${BASE}/${key}`, form()],
      ['DELETE', `${BASE}/${key}`],
      ['GET', VCS],
      ['GET', `${VCS}/${key}/repositories`],
      ['GET', `${VCS}/${key}/selected`],
      ['PUT', `${VCS}/${key}/selected`, { repositories: [] }],
    ]
    for (const [method, url, payload] of calls) {
      const res = await call(method, url, payload, alice)
      expect(res.statusCode, `${method} ${url}`).toBe(403)
    }
    const anonymous = await t.fastify.inject({ method: 'GET', url: `${BASE}/getIntegrations` })
    expect(anonymous.statusCode).toBe(401)
  })
})

describe('periodic re-test', () => {
  it('turns CONNECTED to DISCONNECTED when the vendor starts refusing the token, and back', async () => {
    const retest = await createTestApp({ TROVE_GIT_RETEST_INTERVAL_S: '1' })
    const stand = await startVendor('github', { userName: 'octocat', token: 'ghp-retest', repositories: [], cloneUrl: (r) => r })
    try {
      const session = await signIn(retest.fastify)
      const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
        retest.fastify.inject({ method, url, headers: sessionHeaders(session), ...(payload ? { payload } : {}) })
      const created = await as('POST', BASE, {
        integrationName: 'retest',
        userName: 'octocat',
        token: 'ghp-retest',
        url: stand.url,
        vendorName: 1,
        integrationType: 1,
      })
      expect(created.statusCode).toBe(201)
      const status = async () => (await as('GET', `${BASE}/integrations/git`)).json()[0]
      const until = async (want: string) => {
        for (let i = 0; i < 60; i++) {
          const s = await status()
          if (s.status === want) return s
          await new Promise((r) => setTimeout(r, 100))
        }
        throw new Error(`status never became ${want}`)
      }
      stand.refuse(true)
      const down = await until('DISCONNECTED')
      expect(down.statusMessage).toBe(`${new URL(stand.url).host} refused the token (HTTP 401)`)
      stand.refuse(false)
      expect((await until('CONNECTED')).statusMessage).toBeNull()
    } finally {
      await stand.close()
      await retest.close()
    }
  })
})
