import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const LOG4J = 'GHSA-jfh8-c2jp-5v3q'
const DIR = '/artifactory/maven-local/org/apache/logging/log4j/log4j-core'

const pom = (version: string) => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.apache.logging.log4j</groupId>
  <artifactId>log4j-core</artifactId>
  <version>${version}</version>
  <licenses><license><name>Apache License, Version 2.0</name></license></licenses>
</project>
`

/**
 * A blocked download through Maven's layout: Maven and Gradle show a refusal's status line, not its
 * body, so the reason phrase names the advisory.
 */
describe('a blocked download through the Maven layout', () => {
  let t: TestApp
  let admin: Session
  const deploy = async (version: string, file: string, body: string) => {
    const res = await t.fastify.inject({
      method: 'PUT',
      url: `${DIR}/${version}/${file}`,
      headers: { ...sessionHeaders(admin), 'content-type': 'application/octet-stream' },
      payload: Buffer.from(body),
    })
    expect(res.statusCode, res.body).toBe(201)
  }
  const admin_ = (url: string, payload: object) =>
    t.fastify.inject({ method: 'POST', url: `/ui/api/v1/xray/ui/admin/${url}`, headers: sessionHeaders(admin), payload })

  beforeAll(async () => {
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    admin = await signIn(t.fastify)
    await createRepo(t.fastify, admin, 'maven-local', { rclass: 'local', packageType: 'maven' })
    const advisory = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${LOG4J}.json`), 'utf8'))
    expect((await admin_('database/import', [advisory])).statusCode).toBe(200)
    // log4j-core 2.14.1 is in the advisory's range (2.13.0 up to 2.15.0); 2.15.0 is the fix.
    for (const version of ['2.14.1', '2.15.0']) {
      await deploy(version, `log4j-core-${version}.pom`, pom(version))
      await deploy(version, `log4j-core-${version}.jar`, `jar bytes of ${version}`)
    }
    await t.app.scanner.idle()
    expect(
      (await admin_('policies', { name: 'no-critical', minSeverity: 'critical', actions: { blockDownload: true } })).statusCode,
    ).toBe(201)
    expect((await admin_('watches', { name: 'java', repositories: ['maven-local'], policies: ['no-critical'] })).statusCode).toBe(
      201,
    )
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it('refuses the affected jar with 403, the advisory in the status line and the body', async () => {
    const res = await t.fastify.inject({
      method: 'GET',
      url: `${DIR}/2.14.1/log4j-core-2.14.1.jar`,
      headers: sessionHeaders(admin),
    })
    expect(res.statusCode).toBe(403)
    expect(res.statusMessage).toContain(LOG4J)
    expect(res.json().errors[0]).toMatchObject({ status: 403, code: 'DOWNLOAD_BLOCKED' })
    expect(res.json().errors[0].message).toContain(`${LOG4J} (critical) in org.apache.logging.log4j:log4j-core@2.14.1`)
  })

  it('serves the fixed version', async () => {
    const res = await t.fastify.inject({
      method: 'GET',
      url: `${DIR}/2.15.0/log4j-core-2.15.0.jar`,
      headers: sessionHeaders(admin),
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('jar bytes of 2.15.0')
  })
})
