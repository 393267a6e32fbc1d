import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, grantRepos, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { hashPassword } from '../../core/passwords.js'
import { insertUser } from '../../identity/users/repo.js'
import { readPom } from './metadata.js'

const sha1 = (data: string | Buffer) => crypto.createHash('sha1').update(data).digest('hex')
/** Debian's Maven plugins (libmaven-deploy-plugin-java) are the only ones available offline. */
const DEBIAN_MAVEN_REPO = '/usr/share/maven-repo'

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>demo</artifactId>
  <version>VERSION</version>
  <packaging>jar</packaging>
  <name>Demo</name>
  <description>A demo library &amp; more</description>
  <licenses><license><name>Apache-2.0</name></license></licenses>
  <dependencies>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.9</version></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
  </dependencies>
</project>
`

describe('POM reading', () => {
  it("takes the project's own description, licences and dependencies, not its parent's or its build's", () => {
    const pom = POM.replace(
      '<modelVersion>4.0.0</modelVersion>',
      '<modelVersion>4.0.0</modelVersion><parent><artifactId>p</artifactId><description>not mine</description></parent>',
    ).replace(
      '</project>',
      '<dependencyManagement><dependencies><dependency><groupId>x</groupId><artifactId>y</artifactId></dependency></dependencies></dependencyManagement></project>',
    )
    const info = readPom(pom)
    expect(info.description).toBe('A demo library & more')
    expect(info.dependencies.map((d) => d.name)).toEqual(['org.slf4j:slf4j-api', 'junit:junit'])
    expect(info.licenses).toEqual(['Apache-2.0'])
  })
})

/** `mvn deploy:deploy-file` (the real Maven client) against Trove, then resolution by the layout Maven reads. */
describe('maven repositories', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  const get = (url: string) => t.fastify.inject({ url, headers: { authorization: `Bearer ${token}` } })

  const deploy = (version: string, repo = 'maven-local', user = 'admin', secret = token) => {
    writeFiles(work, {
      'settings.xml': `<settings><servers><server><id>trove</id><username>${user}</username><password>${secret}</password></server></servers></settings>`,
      'demo.jar': `jar of ${version} ${Date.now()}`,
      'pom.xml': POM.replace('VERSION', version),
    })
    return run(
      'mvn',
      [
        '-B',
        '-q',
        '-s',
        'settings.xml',
        `-Dmaven.repo.local=${path.join(work, 'm2')}`,
        'org.apache.maven.plugins:maven-deploy-plugin:3.0.0:deploy-file',
        '-Dfile=demo.jar',
        '-DpomFile=pom.xml',
        `-Durl=${base}/artifactory/${repo}`,
        '-DrepositoryId=trove',
      ],
      { cwd: work },
    )
  }

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-maven-')
    fs.cpSync(DEBIAN_MAVEN_REPO, path.join(work, 'm2'), { recursive: true, dereference: true })
    await createRepo(t.fastify, admin, 'maven-local', { rclass: 'local', packageType: 'maven' })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('deploys a release with mvn, records the POM, and serves files, checksums and maven-metadata.xml', async () => {
    const result = await deploy('1.0.0')
    expect(result.stdout + result.stderr).not.toMatch(/ERROR/)
    expect(result.code).toBe(0)
    const jar = await get('/artifactory/maven-local/com/example/demo/1.0.0/demo-1.0.0.jar')
    expect(jar.statusCode).toBe(200)
    expect(jar.body).toMatch(/^jar of 1\.0\.0/)
    const sum = await get('/artifactory/maven-local/com/example/demo/1.0.0/demo-1.0.0.jar.sha1')
    expect(sum.body).toBe(sha1(jar.rawPayload))
    expect((await get('/artifactory/maven-local/com/example/demo/1.0.0/demo-1.0.0.pom.md5')).body).toMatch(/^[0-9a-f]{32}$/)

    const meta = await get('/artifactory/maven-local/com/example/demo/maven-metadata.xml')
    expect(meta.body).toContain('<release>1.0.0</release>')
    expect(meta.body).toContain('<version>1.0.0</version>')
    const metaSum = await get('/artifactory/maven-local/com/example/demo/maven-metadata.xml.sha1')
    expect(metaSum.body).toBe(sha1(meta.rawPayload))

    const db = t.app.db.kysely
    const pkg = await db.selectFrom('packages').selectAll().where('name', '=', 'com.example:demo').executeTakeFirstOrThrow()
    expect(pkg).toMatchObject({ package_type: 'maven', latest_version: '1.0.0', description: 'A demo library & more' })
    const version = await db.selectFrom('package_versions').selectAll().where('package_id', '=', pkg.id).executeTakeFirstOrThrow()
    expect(JSON.parse(version.licenses)).toEqual(['Apache-2.0'])
    const deps = await db
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', version.id)
      .orderBy('name')
      .execute()
    expect(deps).toEqual([
      { name: 'junit:junit', range: '4.13.2', scope: 'test' },
      { name: 'org.slf4j:slf4j-api', range: '2.0.9', scope: 'compile' },
    ])
    const files = await db
      .selectFrom('files')
      .select(['name', 'lead'])
      .where('version_id', '=', version.id)
      .orderBy('name')
      .execute()
    expect(files).toEqual([
      { name: 'demo-1.0.0.jar', lead: 1 },
      { name: 'demo-1.0.0.pom', lead: 0 },
    ])
  }, 60_000)

  it('keeps maven-metadata.xml right across releases and snapshots', async () => {
    expect((await deploy('1.1.0')).code).toBe(0)
    expect((await deploy('2.0.0-SNAPSHOT')).code).toBe(0)
    expect((await deploy('2.0.0-SNAPSHOT')).code).toBe(0)
    const meta = (await get('/artifactory/maven-local/com/example/demo/maven-metadata.xml')).body
    expect(meta).toContain('<latest>2.0.0-SNAPSHOT</latest>')
    expect(meta).toContain('<release>1.1.0</release>')
    expect([...meta.matchAll(/<version>([^<]+)<\/version>/g)].map((m) => m[1])).toEqual(['1.0.0', '1.1.0', '2.0.0-SNAPSHOT'])
    const snap = (await get('/artifactory/maven-local/com/example/demo/2.0.0-SNAPSHOT/maven-metadata.xml')).body
    expect(snap).toContain('<buildNumber>2</buildNumber>')
    const value = /<extension>jar<\/extension>\s*<value>([^<]+)<\/value>/.exec(snap)?.[1]
    expect(value).toMatch(/^2\.0\.0-\d{8}\.\d{6}-2$/)
    // The file the metadata names is there, as Maven will ask for it.
    const jar = await get(`/artifactory/maven-local/com/example/demo/2.0.0-SNAPSHOT/demo-${value}.jar`)
    expect(jar.statusCode).toBe(200)
  }, 90_000)

  it('lists a version in maven-metadata.xml only once its POM is stored (a deploy cut off after the jar lists nothing)', async () => {
    const put = (p: string, body: string) =>
      t.fastify.inject({
        method: 'PUT',
        url: `/artifactory/maven-local/${p}`,
        headers: { authorization: `Bearer ${token}` },
        payload: body,
      })
    const listed = async () =>
      [
        ...(await get('/artifactory/maven-local/com/example/demo/maven-metadata.xml')).body.matchAll(
          /<version>([^<]+)<\/version>/g,
        ),
      ].map((m) => m[1])
    const before = await listed()
    expect((await put('com/example/demo/3.0.0/demo-3.0.0.jar', 'jar of 3.0.0')).statusCode).toBe(201)
    expect(await listed()).toEqual(before)
    expect((await put('com/example/demo/3.0.0/demo-3.0.0.pom', POM.replace('VERSION', '3.0.0'))).statusCode).toBe(201)
    expect(await listed()).toEqual([...before, '3.0.0'])
  })

  it('refuses a redeploy of a release without the delete permission (409) and a bad checksum (400, file removed)', async () => {
    await insertUser(t.app.db.kysely, {
      name: 'dev',
      email: null,
      passwordHash: await hashPassword('dev-password-1'),
      admin: false,
    })
    // dev may read and deploy, not delete: a redeploy would overwrite.
    await grantRepos(t.fastify, admin, 'maven-dev', { repos: ['maven-local'], user: 'dev', actions: ['read', 'deploy'] })
    const devSession = await signIn(t.fastify, 'dev', 'dev-password-1')
    const devToken = await accessToken(t.fastify, devSession, 'dev')
    const again = await deploy('1.0.0', 'maven-local', 'dev', devToken)
    expect(again.code).not.toBe(0)
    expect(again.stdout + again.stderr).toMatch(/409/)

    const put = (p: string, body: string) =>
      t.fastify.inject({
        method: 'PUT',
        url: `/artifactory/maven-local/${p}`,
        headers: { authorization: `Bearer ${token}` },
        payload: body,
      })
    expect((await put('org/acme/lib/1.0/lib-1.0.jar', 'the jar')).statusCode).toBe(201)
    const bad = await put('org/acme/lib/1.0/lib-1.0.jar.sha1', sha1('something else'))
    expect(bad.statusCode).toBe(400)
    expect((await get('/artifactory/maven-local/org/acme/lib/1.0/lib-1.0.jar')).statusCode).toBe(404)
    const anonymous = await t.fastify.inject({
      method: 'PUT',
      url: '/artifactory/maven-local/org/acme/lib/1.0/lib-1.0.pom',
      payload: 'x',
    })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/)
    expect((await get('/artifactory/maven-local/org/none/x/1/x-1.jar')).statusCode).toBe(404)
  }, 60_000)

  it('resolves through a remote repository proxying a second Trove, and through a virtual one', async () => {
    const upstream = await createTestApp()
    try {
      const upstreamBase = await listen(upstream.fastify)
      const upstreamAdmin = await signIn(upstream.fastify)
      const upstreamToken = await accessToken(upstream.fastify, upstreamAdmin)
      await createRepo(upstream.fastify, upstreamAdmin, 'central', { rclass: 'local', packageType: 'maven' })
      const put = (p: string, body: string) =>
        upstream.fastify.inject({
          method: 'PUT',
          url: `/artifactory/central/${p}`,
          headers: { authorization: `Bearer ${upstreamToken}` },
          payload: body,
        })
      expect((await put('org/up/lib/3.1/lib-3.1.pom', POM.replace('VERSION', '3.1'))).statusCode).toBe(201)
      expect((await put('org/up/lib/3.1/lib-3.1.jar', 'upstream jar')).statusCode).toBe(201)
      await createRepo(t.fastify, admin, 'maven-remote', {
        rclass: 'remote',
        packageType: 'maven',
        url: `${upstreamBase}/artifactory/central`,
        username: 'admin',
        password: upstreamToken,
      })
      await createRepo(t.fastify, admin, 'maven-virtual', {
        rclass: 'virtual',
        packageType: 'maven',
        repositories: ['maven-local', 'maven-remote'],
        defaultDeploymentRepo: 'maven-local',
      })
      const jar = await get('/artifactory/maven-virtual/org/up/lib/3.1/lib-3.1.jar')
      expect(jar.statusCode).toBe(200)
      expect(jar.body).toBe('upstream jar')
      expect((await get('/artifactory/maven-remote/org/up/lib/3.1/lib-3.1.jar.sha1')).body).toBe(sha1('upstream jar'))
      const meta = await get('/artifactory/maven-remote/org/up/lib/maven-metadata.xml')
      expect(meta.body).toContain('<release>3.1</release>')
      // Local content still comes first in the virtual repository.
      expect((await get('/artifactory/maven-virtual/com/example/demo/1.0.0/demo-1.0.0.jar')).body).toMatch(/^jar of 1\.0\.0/)
      const cached = await t.app.db.kysely
        .selectFrom('files')
        .select('repo_key')
        .where('path', '=', 'org/up/lib/3.1/lib-3.1.jar')
        .executeTakeFirstOrThrow()
      expect(cached.repo_key).toBe('maven-remote')
    } finally {
      await upstream.close()
    }
  }, 60_000)
})
