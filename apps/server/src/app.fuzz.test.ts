import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo } from '../test/clients.js'
import { FUZZ_TEST_TIMEOUT, fuzzParams } from '../test/fuzz.js'
import { ADMIN_PASSWORD, createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../test/testApp.js'
import { QUERY_LIMITS } from './services/packages/queryLimits.js'

// Hostile requests through the whole app (routing, access rules, schemas, handlers): whatever
// arrives, the answer is never a 500.
let t: TestApp
let admin: Session
// A token, as twine sends one: a password would be hashed on every case, and the long runs
// (FUZZ_RUNS=10000) spent their time limit on that rather than on the forms.
let basic: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify, 'admin', ADMIN_PASSWORD)
  basic = `Basic ${Buffer.from(`__token__:${await accessToken(t.fastify, admin)}`).toString('base64')}`
  await createRepo(t.fastify, admin, 'pypi-local', { rclass: 'local', packageType: 'pypi' })
  await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
  await createRepo(t.fastify, admin, 'maven-local', { rclass: 'local', packageType: 'maven' })
  await createRepo(t.fastify, admin, 'generic-local', { rclass: 'local', packageType: 'generic' })
})
afterAll(async () => {
  await t?.close()
})

const segment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2F',
    '%00',
    '%',
    '%zz',
    '~',
    '-',
    '_',
    'latest',
    'v2',
    'simple',
    '-rev',
    'a'.repeat(300),
  ),
  fc.webSegment(),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
)
const query = fc.oneof(
  fc.constant(''),
  fc.webQueryParameters().map((q) => `?${q}`),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('first', 'after', 'limit', 'path', 'q', 'id', 'repoKey', 'page', 'name', '$where'),
        fc.string({ maxLength: 8 }),
      ),
      {
        maxLength: 4,
      },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`),
)
const PREFIXES = [
  '/api/npm/npm-local/',
  '/api/pypi/pypi-local/',
  '/api/pypi/pypi-local/simple/',
  '/artifactory/api/pypi/pypi-local/',
  '/maven-local/',
  '/artifactory/maven-local/',
  '/generic-local/',
  '/v2/',
  '/api/storage/',
  '/ui/api/v1/ui/v1/native/versions/',
  '/ui/api/v1/download',
  '/ui/api/v1/ui/access/me/repositories',
  '/api/build/',
  '/ui/api/v1/',
]

describe('arbitrary requests through HTTP', () => {
  it(
    'never answers 500 to an arbitrary path and query on the format and console routes',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PREFIXES),
          fc.array(segment, { maxLength: 5 }),
          query,
          fc.constantFrom('GET', 'HEAD', 'DELETE', 'PUT', 'POST'),
          fc.constantFrom('anonymous', 'admin'),
          async (prefix, segments, q, method, who) => {
            const res = await t.fastify.inject({
              method,
              url: `${prefix}${segments.join('/')}${q}`,
              headers: who === 'admin' ? { authorization: basic } : {},
              ...(method === 'PUT' || method === 'POST'
                ? {
                    payload: '{}',
                    headers: { 'content-type': 'application/json', ...(who === 'admin' ? { authorization: basic } : {}) },
                  }
                : {}),
            })
            expect(res.statusCode, `${method} ${prefix}${segments.join('/')}${q}: ${res.body.slice(0, 200)}`).toBeLessThan(500)
          },
        ),
        fuzzParams(250),
      )
    },
    FUZZ_TEST_TIMEOUT ?? 30_000,
  )

  it(
    'reads any twine upload form, however its fields are named, into an answer below 500',
    async () => {
      const fieldName = fc.oneof(
        fc.constantFrom(
          '__proto__',
          'constructor',
          'toString',
          'name',
          'version',
          ':action',
          'sha256_digest',
          'metadata_version',
          'content',
        ),
        fc.string({ maxLength: 8 }).filter((n) => !/["\r\n\\]/.test(n)),
      )
      const form = fc.record({
        fields: fc.array(
          fc.tuple(
            fieldName,
            fc.string({ maxLength: 20 }).filter((v) => !v.includes('\r')),
          ),
          { maxLength: 8 },
        ),
        filename: fc.oneof(
          fc.constantFrom('pkg-1.0.tar.gz', '../x-1.0.tar.gz', 'pkg-1.0-py3-none-any.whl', ''),
          fc.string({ maxLength: 12 }),
        ),
        content: fc.uint8Array({ maxLength: 64 }).map(Buffer.from),
        truncate: fc.boolean(),
      })
      await fc.assert(
        fc.asyncProperty(form, async ({ fields, filename, content, truncate }) => {
          const boundary = '----trovefuzz'
          const parts = fields.map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`)
          const file = `--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="${filename.replace(/["\r\n]/g, '')}"\r\n\r\n`
          let payload = Buffer.concat([Buffer.from(parts.join('') + file), content, Buffer.from(`\r\n--${boundary}--\r\n`)])
          if (truncate) payload = payload.subarray(0, Math.floor(payload.length / 2))
          const res = await t.fastify.inject({
            method: 'POST',
            url: '/api/pypi/pypi-local/',
            headers: { authorization: basic, 'content-type': `multipart/form-data; boundary=${boundary}` },
            payload,
          })
          expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500)
        }),
        fuzzParams(100),
      )
    },
    FUZZ_TEST_TIMEOUT ?? 30_000,
  )
})

const mds = (query: string) =>
  t.fastify.inject({
    method: 'POST',
    url: '/ui/api/v1/mds/packages',
    headers: sessionHeaders(admin),
    payload: { graphQL: { query, variables: {} } },
  })

describe('metadata queries past the limits', () => {
  it(
    'refuses a query nested deeper than the limit with 400',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: QUERY_LIMITS.depth + 1, max: 400 }), async (depth) => {
          const res = await mds(`{ packages { ${'edges { node { '.repeat(depth)}name${' } }'.repeat(depth)} } }`)
          expect(res.statusCode, res.body.slice(0, 200)).toBe(400)
        }),
        fuzzParams(30, { timeoutMs: 10_000, most: 300 }),
      )
    },
    FUZZ_TEST_TIMEOUT ?? 30_000,
  )

  it(
    'refuses a query wider than the limit with 400, by aliases, by fragments or by sheer length',
    async () => {
      const how = fc.constantFrom('aliases', 'fragments', 'tokens')
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: QUERY_LIMITS.fields + 1, max: 50_000 }), how, async (width, shape) => {
          let query: string
          if (shape === 'aliases') {
            const fields = Array.from({ length: Math.min(width, 900) }, (_, i) => `a${i}: name`).join(' ')
            query = `{ packages { edges { node { ${fields} } } } }`
          } else if (shape === 'fragments') {
            // Fields spread over many small fragments: each is counted where it is spread.
            const count = Math.min(Math.ceil(width / 2), 400)
            const fragments = Array.from(
              { length: count },
              (_, i) => `fragment D${i} on PackageConnection { a${i}: totalCount b${i}: totalCount }`,
            )
            query = `{ packages { ${fragments.map((_, i) => `...D${i}`).join(' ')} } } ${fragments.join(' ')}`
          } else {
            query = `{ packages { totalCount ${' __typename'.repeat(width)} } }`
          }
          const res = await mds(query)
          expect(res.statusCode, res.body.slice(0, 200)).toBe(400)
          expect(res.json().errors[0].message).toMatch(/more than|tokens|Too big/)
        }),
        fuzzParams(30, { timeoutMs: 10_000, most: 300 }),
      )
    },
    FUZZ_TEST_TIMEOUT ?? 30_000,
  )

  it('still answers the console-sized query', async () => {
    const res = await mds('{ packages(first: 5) { totalCount edges { node { id name } } pageInfo { hasNextPage endCursor } } }')
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
  })
})

describe('regressions found by fuzzing through HTTP', () => {
  it('answers 400, not 500, to a NUL byte in a path or a query (found on PostgreSQL: GET /artifactory/maven-local/%00)', async () => {
    for (const url of ['/artifactory/maven-local/%00', '/api/npm/npm-local/a%00b', '/api/storage/maven-local/x?list=%00']) {
      const res = await t.fastify.inject({ url, headers: sessionHeaders(admin) })
      expect(res.statusCode, url).toBe(400)
      expect(res.json().errors[0].message).toMatch(/NUL/)
    }
  })

  it('answers 400, not 500, to a repository path with a lone percent sign (/artifactory/maven-local/%25)', async () => {
    const res = await t.fastify.inject({ url: '/artifactory/maven-local/%25' })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/^path: /)
  })

  it('answers an upload form with a field named __proto__ below 500', async () => {
    const boundary = '----trovefuzz'
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--${boundary}--\r\n`
    const res = await t.fastify.inject({
      method: 'POST',
      url: '/api/pypi/pypi-local/',
      headers: { authorization: basic, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    })
    expect(res.statusCode).toBe(400)
  })
})
