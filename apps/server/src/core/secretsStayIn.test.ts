import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startVendor, type VendorStandIn } from '../../test/gitVendors.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, throwawayDatabase } from '../../test/testApp.js'
import { unzip } from '../../test/zip.js'

/**
 * Finding 3 of the security probe, as a class: a secret leaves Trove by no way an administrator
 * or a support engineer reads. Every secret is set to a known marker; then a support bundle with
 * every option, every log line, every admin GET and the GraphQL schema are searched for each
 * marker in plain, hex, base64 and byte-array form.
 */
const text = (s: string) => Buffer.from(s, 'utf8')
const MARKERS: Record<string, Buffer> = {
  masterKey: text('MK-marker-7a1c3e5f0b9d2846c1e3a5'), // 32 bytes
  adminPassword: text('AP-marker-password-4f2e9c'),
  s3Secret: text('S3-marker-secret-8b6d0a2c'),
  databasePassword: text('DB-marker-password-1e7f3b'),
  smtpPassword: text('SM-marker-password-5c9a2d'),
  oidcClientSecret: text('OC-marker-client-secret-3d8e'),
  remotePassword: text('RP-marker-password-6a4f1b'),
  gitToken: text('GT-marker-token-2b7c9e4d0f1a'),
}

/** Every form a secret could be written out in. */
function formsOf(bytes: Buffer): string[] {
  return [
    bytes.toString('utf8'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    [...bytes].join(','),
    JSON.stringify([...bytes]),
  ]
}

let t: TestApp
let admin: Session
let vendor: VendorStandIn
let dropDatabase = async () => {}
const saved: Record<string, string | undefined> = {}

/** Process-level markers too: a diagnostic report holds the process's environment. */
const PROCESS_ENV = {
  TROVE_MASTER_KEY: MARKERS.masterKey?.toString('base64') ?? '',
  TROVE_S3_SECRET_ACCESS_KEY: MARKERS.s3Secret?.toString('utf8') ?? '',
  TROVE_ADMIN_PASSWORD: MARKERS.adminPassword?.toString('utf8') ?? '',
}

beforeAll(async () => {
  for (const [k, v] of Object.entries(PROCESS_ENV)) {
    saved[k] = process.env[k]
    process.env[k] = v
  }
  const database = await throwawayDatabase()
  dropDatabase = database.drop
  const env: Record<string, string> = {
    ...PROCESS_ENV,
    TROVE_MODULES: 'repository,scanner,distribution',
    TROVE_GIT_RETEST_INTERVAL_S: '0',
  }
  // PostgreSQL here trusts local connections, so a password in the URL is carried but not needed.
  if (database.url) {
    const url = new URL(database.url)
    url.password = MARKERS.databasePassword?.toString('utf8') ?? ''
    env.TROVE_DATABASE_URL = url.toString()
  }
  t = await createTestApp(env)
  admin = await signIn(t.fastify, 'admin', PROCESS_ENV.TROVE_ADMIN_PASSWORD)
  const call = async (method: 'PUT' | 'POST', url: string, payload: object, ok: number[]) => {
    const res = await t.fastify.inject({ method, url, headers: sessionHeaders(admin), payload })
    expect(ok, `${method} ${url}: ${res.body}`).toContain(res.statusCode)
  }
  await call(
    'PUT',
    '/ui/api/v1/ui/admin/configuration/mail',
    {
      enabled: true,
      host: '127.0.0.1',
      port: 9,
      secure: false,
      username: 'trove',
      password: MARKERS.smtpPassword?.toString('utf8'),
      from: 'trove@example.com',
      baseUrl: 'https://trove.example.com/',
    },
    [200],
  )
  await call(
    'POST',
    '/ui/api/v1/ui/admin/security/oauth',
    {
      name: 'corp',
      issuerUrl: 'https://idp.example.com',
      clientId: 'trove',
      clientSecret: MARKERS.oidcClientSecret?.toString('utf8'),
    },
    [201],
  )
  await call(
    'PUT',
    '/api/repositories/npm-remote',
    {
      rclass: 'remote',
      packageType: 'npm',
      url: 'http://127.0.0.1:9/registry/',
      username: 'mirror',
      password: MARKERS.remotePassword?.toString('utf8'),
    },
    [201],
  )
  const gitToken = MARKERS.gitToken?.toString('utf8') ?? ''
  vendor = await startVendor('github', {
    userName: 'octo',
    token: gitToken,
    repositories: ['octo/alpha'],
    cloneUrl: () => 'http://127.0.0.1:9/x.git',
  })
  await call(
    'POST',
    '/ui/api/v1/integration',
    {
      integrationName: 'github main',
      userName: 'octo',
      token: gitToken,
      url: vendor.url,
      vendorName: 'github',
      integrationType: 'git',
    },
    [201],
  )
  // A remote that fails, and a wrong token: errors get logged.
  await t.fastify.inject({ url: '/api/npm/npm-remote/left-pad', headers: { cookie: admin.cookie } })
  await t.fastify.inject({ url: '/api/system/version', headers: { authorization: `Bearer ${gitToken}` } })
}, 60_000)

afterAll(async () => {
  await vendor?.close()
  await t?.close()
  await dropDatabase()
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
})

/** Where each marker shows, in any form, in these texts: `source: marker`. */
function leaks(texts: Map<string, string>): string[] {
  const found: string[] = []
  for (const [source, body] of texts) {
    // Without white space too: a pretty-printed byte array puts each byte on a line of its own.
    // And with object keys gone: a Buffer walked as an object is {"0": 77, "1": 75, …}.
    const compact = body.replace(/\s+/g, '').replace(/"\d+":/g, '')
    for (const [marker, bytes] of Object.entries(MARKERS)) {
      if (formsOf(bytes).some((form) => body.includes(form) || compact.includes(form))) found.push(`${source}: ${marker}`)
    }
    if (/PRIVATE KEY/.test(body)) found.push(`${source}: a private key`)
  }
  return found
}

describe('secrets set to markers', () => {
  it('are in no file of a support bundle made with every option', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const made = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userSupport/generateBundle',
      headers: sessionHeaders(admin),
      payload: {
        name: 'everything',
        description: 'all options',
        parameters: {
          configuration: true,
          system: true,
          logs: { include: true, start_date: today, end_date: today },
          thread_dump: { count: 1, interval: 0 },
        },
      },
    })
    expect(made.statusCode).toBe(201)
    await t.app.operations.idle()
    const zip = await t.fastify.inject({
      url: `/ui/api/v1/ui/userSupport/downloadBundle/${made.json().id}`,
      headers: { cookie: admin.cookie },
    })
    expect(zip.statusCode).toBe(200)
    const files = await unzip(zip.rawPayload)
    expect([...files.keys()]).toEqual(expect.arrayContaining(['configuration/trove-config.json', 'thread_dumps/report-1.json']))
    expect(leaks(files)).toEqual([])
    // It still says which secrets are set.
    const config = JSON.parse(files.get('configuration/trove-config.json') ?? '{}')
    expect(config.environment.masterKey).toBe('***')
    expect(config.environment.adminPassword).toBe('***')
  })

  it('are in no log line', async () => {
    const dir = t.config.log.dir
    const texts = new Map(fs.readdirSync(dir).map((name) => [`log ${name}`, fs.readFileSync(path.join(dir, name), 'utf8')]))
    expect(texts.size).toBeGreaterThan(0)
    expect(leaks(texts)).toEqual([])
  })

  it('are in no answer of any GET an administrator can make, nor in the GraphQL schema', async () => {
    const texts = new Map<string, string>()
    for (const route of t.app.routes) {
      if (![route.method].flat().includes('GET') || route.url.includes('downloadBundle')) continue
      const url = route.url.replace(/:(\w+)(\([^)]*\))?/g, '1').replace(/\*/g, '')
      const res = await t.fastify.inject({ url, headers: { cookie: admin.cookie } })
      texts.set(`GET ${route.url}`, res.body)
    }
    const schema = await t.fastify.inject({
      method: 'POST',
      url: '/metadata/api/v1/query',
      headers: sessionHeaders(admin),
      payload: { query: '{ __schema { types { name fields { name } } } }' },
    })
    texts.set('GraphQL schema', schema.body)
    expect(texts.size).toBeGreaterThan(100)
    expect(leaks(texts)).toEqual([])
  }, 120_000)
})
