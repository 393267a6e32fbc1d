import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

/**
 * XML external entities in a POM, deployed as Maven does (PUT): Trove reads POMs without a DTD,
 * so an entity names itself and nothing else; no file of the server's, no URL is read.
 */
let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
  await createRepo(t.fastify, admin, 'maven-xxe', { rclass: 'local', packageType: 'maven' })
})
afterAll(() => t.close())

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE project [
  <!ENTITY file SYSTEM "file:///etc/passwd">
  <!ENTITY remote SYSTEM "http://127.0.0.1:9/xxe">
  <!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>xxe</artifactId>
  <version>1.0.0</version>
  <name>&file;</name>
  <description>&file;&remote;&lol2;</description>
  <licenses><license><name>&file;</name></license></licenses>
</project>
`

describe('a POM with external entities', () => {
  it('is stored, and nothing an entity names is read into it', async () => {
    const put = (path: string, body: string) =>
      t.fastify.inject({ method: 'PUT', url: `/artifactory/maven-xxe/${path}`, headers: sessionHeaders(admin), payload: body })
    expect((await put('com/example/xxe/1.0.0/xxe-1.0.0.pom', POM)).statusCode).toBe(201)
    expect((await put('com/example/xxe/1.0.0/xxe-1.0.0.jar', 'jar')).statusCode).toBe(201)
    const db = t.app.db.kysely
    const pkg = await db.selectFrom('packages').selectAll().where('name', '=', 'com.example:xxe').executeTakeFirstOrThrow()
    const version = await db.selectFrom('package_versions').selectAll().where('package_id', '=', pkg.id).executeTakeFirstOrThrow()
    const stored = JSON.stringify({ pkg, version })
    expect(stored).not.toMatch(/root:|lollol/)
    expect(pkg.description ?? '').not.toMatch(/root:/)
  })
})
