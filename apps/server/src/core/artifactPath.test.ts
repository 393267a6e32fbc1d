import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'
import { canonicalPath } from './artifactPath.js'

/**
 * Finding 6 of the security probe: `a\..\..\x` and `a//b///c` were stored as names of their own.
 * One grammar (core/artifactPath.ts) for every way a path comes in, and for the store.
 */
let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
  await createRepo(t.fastify, admin, 'paths', { rclass: 'local', packageType: 'generic' })
})
afterAll(() => t.close())

const put = (url: string) =>
  t.fastify.inject({ method: 'PUT', url, headers: sessionHeaders(admin), payload: Buffer.from('content') })

describe('the path grammar', () => {
  it('refuses backslashes, control characters and dot segments; folds empty segments', () => {
    for (const bad of ['a\\..\\..\\x', 'a\\b', 'a/../x', './x', 'a/./b', 'a\u0000b', 'a\nb', '..']) {
      expect(() => canonicalPath(bad), JSON.stringify(bad)).toThrow(/^path: /)
    }
    expect(canonicalPath('a//b///c')).toBe('a/b/c')
    expect(canonicalPath('/a/b/')).toBe('a/b')
  })

  it('is the same through every way in: client paths, the console’s deploy, the storage API', async () => {
    for (const url of [
      '/artifactory/paths/a%5C..%5C..%5Cx',
      '/artifactory/paths/a/%252e%252e/x',
      '/ui/api/v1/ui/artifacts/deploy/paths/a%5Cb',
    ]) {
      const res = await put(url)
      expect(res.statusCode, url).toBe(400)
      expect(res.json().errors[0].message, url).toMatch(/^path: /)
    }
    // a//b///c is the file a/b/c, whichever way it is written.
    expect((await put('/artifactory/paths/a//b///c')).statusCode).toBe(201)
    expect((await put('/artifactory/paths/a/b/c')).statusCode).toBe(201)
    const listed = await t.fastify.inject({ url: '/api/storage/paths/?list&deep=1', headers: { cookie: admin.cookie } })
    expect(listed.json().files.map((f: { uri: string }) => f.uri)).toEqual(['/a/b/c'])
    const got = await t.fastify.inject({ url: '/artifactory/paths/a///b//c', headers: { cookie: admin.cookie } })
    expect(got.statusCode).toBe(200)
  })
})
