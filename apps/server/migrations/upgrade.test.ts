import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import type { Kysely } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/core/config.js'
import { type Db, openDb } from '../src/core/db.js'
import { migrateToLatest } from '../src/core/migrate.js'
import { hashPassword } from '../src/core/passwords.js'
import { checkIntegrity } from '../src/services/operations/doctor.js'
import { isSemverRelease, semverKey } from '../src/storage/semverKey.js'
import { ADMIN_PASSWORD, signIn, tempDir, throwawayDatabase } from '../test/testApp.js'

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const repoRoot = path.resolve(serverDir, '../..')
const MIGRATIONS = 'apps/server/migrations'
/** The migration files themselves (numbered), not the tests or helpers beside them. */
const MIGRATION_FILES = `${MIGRATIONS}/[0-9]*.ts`
const git = (...args: string[]) =>
  execFileSync('git', ['-C', repoRoot, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
const gitOr = (...args: string[]) => {
  try {
    return git(...args)
  } catch {
    return undefined
  }
}

/**
 * The previous release: the commit before the one that added the newest migration (there are no
 * release tags; every commit on main is releasable). Its database is the newest one the current
 * code has to migrate, and the found commit moves on by itself as migrations are added.
 */
function previousRelease(): { commit: string; added: string; reason?: undefined } | { reason: string } {
  if (gitOr('rev-parse', '--is-inside-work-tree') !== 'true')
    return { reason: 'not a git checkout (a tarball?): no history to build the previous release from' }
  const added = gitOr('log', '-1', '--diff-filter=A', '--format=%H', '--', MIGRATION_FILES)
  if (!added) return { reason: 'no commit in the history added a migration' }
  const commit = gitOr('rev-parse', '--verify', '--quiet', `${added}^`)
  if (!commit) return { reason: `the history ends at ${added} (a shallow clone?): fetch more of it` }
  return { commit, added }
}

const found = previousRelease()
const sha = (algorithm: string, data: Buffer) => crypto.createHash(algorithm).update(data).digest('hex')

/**
 * Writes the previous release's migrations and the runner that applied them (with the sources they
 * import) from git into a folder of the server, where their packages resolve, and returns that runner.
 */
async function previousMigrator(commit: string, into: string): Promise<(db: Db) => Promise<string[]>> {
  const wanted = [
    ...git('ls-tree', '-r', '--name-only', commit, '--', `${MIGRATIONS}/`)
      .split('\n')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')),
    'apps/server/src/core/migrate.ts',
  ]
  const written = new Set<string>()
  while (wanted.length > 0) {
    const file = wanted.pop() as string
    if (written.has(file)) continue
    written.add(file)
    const text = git('show', `${commit}:${file}`)
    const target = path.join(into, path.relative('apps/server', file))
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.writeFileSync(target, text)
    // Relative imports of values come along (type-only ones are erased).
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)'/gm)) {
      wanted.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))))
    }
  }
  const runner = (await import(path.join(into, 'src/core/migrate.ts'))) as { migrateToLatest: (db: Db) => Promise<string[]> }
  return runner.migrateToLatest
}

/** Rows as the previous release wrote them for a published npm version and a generic file. */
// biome-ignore lint/suspicious/noExplicitAny: the previous release's schema, not today's
async function seed(db: Kysely<any>, dataDir: string, files: Record<string, Buffer>): Promise<void> {
  const now = Date.now() - 86_400_000
  const storeBlob = async (content: Buffer) => {
    const sum = sha('sha256', content)
    const file = path.join(dataDir, 'blobs', sum.slice(0, 2), sum.slice(2, 4), sum)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, content)
    const row = { sha256: sum, size: content.length, sha1: sha('sha1', content), md5: sha('md5', content) }
    await db
      .insertInto('blobs')
      .values({ ...row, created_at: now, touched_at: now })
      .execute()
    return row
  }
  await db
    .insertInto('users')
    .values([
      {
        name: 'admin',
        email: 'admin@example.com',
        password_hash: await hashPassword(ADMIN_PASSWORD),
        admin: 1,
        created_at: now,
        updated_at: now,
      },
      {
        name: 'alice',
        email: 'alice@example.com',
        password_hash: await hashPassword('alice-password-1'),
        admin: 0,
        created_at: now,
        updated_at: now,
      },
    ])
    .execute()
  for (const [key, type] of [
    ['npm-local', 'npm'],
    ['files', 'generic'],
  ]) {
    await db
      .insertInto('repositories')
      .values({ key, rclass: 'local', package_type: type, created_at: now, updated_at: now })
      .execute()
  }

  const tarball = files['npm-local/left-pad/-/left-pad-1.3.0.tgz'] as Buffer
  const blob = await storeBlob(tarball)
  const pkg = await db
    .insertInto('packages')
    .values({
      package_type: 'npm',
      name: 'left-pad',
      lowercase_name: 'left-pad',
      latest_version: '1.3.0',
      description: 'pads',
      created_at: now,
      modified_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  // As a publish stored it: the client's manifest, dist without the tarball URL (added when served).
  const manifest = {
    name: 'left-pad',
    version: '1.3.0',
    description: 'pads',
    license: 'MIT',
    dist: { shasum: blob.sha1, integrity: `sha512-${crypto.createHash('sha512').update(tarball).digest('base64')}` },
    _id: 'left-pad@1.3.0',
  }
  const version = await db
    .insertInto('package_versions')
    .values({
      package_id: pkg.id,
      repo_key: 'npm-local',
      version: '1.3.0',
      description: 'pads',
      licenses: '["MIT"]',
      size: blob.size,
      metadata: JSON.stringify(manifest),
      semver_key: semverKey('1.3.0'),
      release: isSemverRelease('1.3.0') ? 1 : 0,
      created_by: 'alice',
      created_at: now,
      modified_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('dist_tags')
    .values({ package_id: pkg.id, repo_key: 'npm-local', tag: 'latest', version: '1.3.0' })
    .execute()
  const fileRow = (repo: string, p: string, b: typeof blob, mime: string, versionId: number | null) => ({
    repo_key: repo,
    path: p,
    name: path.posix.basename(p),
    version_id: versionId,
    lead: versionId === null ? 0 : 1,
    ...b,
    mime_type: mime,
    created_by: 'alice',
    created_at: now,
    modified_at: now,
  })
  await db
    .insertInto('files')
    .values(fileRow('npm-local', 'left-pad/-/left-pad-1.3.0.tgz', blob, 'application/gzip', version.id))
    .execute()
  const tool = await storeBlob(files['files/tools/v1/tool.bin'] as Buffer)
  await db
    .insertInto('files')
    .values(fileRow('files', 'tools/v1/tool.bin', tool, 'application/octet-stream', null))
    .execute()
}

describe.skipIf(found.reason !== undefined)(
  `upgrade from the previous release${found.reason ? ` (skipped: ${found.reason})` : ''}`,
  () => {
    let work = ''
    // Inside the server's folder (.tmp/ is ignored by git), so the old sources import this checkout's packages.
    const oldTree = path.join(serverDir, '.tmp', `upgrade-${process.pid}-${Date.now()}`)
    afterAll(() => {
      if (work) fs.rmSync(work, { recursive: true, force: true })
      fs.rmSync(oldTree, { recursive: true, force: true })
    })

    it('migrates a database the previous release wrote, with data in it, and serves that data', async () => {
      const { commit, added } = found as { commit: string; added: string }
      work = tempDir('trove-upgrade-')
      const migrateOld = await previousMigrator(commit, oldTree)
      const database = await throwawayDatabase()
      const dataDir = path.join(work, 'data')
      const tarball = zlib.gzipSync(Buffer.from(`package/index.js: module.exports = (s, n) => s.padStart(n)\n`))
      const files = { 'npm-local/left-pad/-/left-pad-1.3.0.tgz': tarball, 'files/tools/v1/tool.bin': crypto.randomBytes(4096) }
      try {
        const old = await openDb({ databaseUrl: database.url, dataDir })
        let applied: string[]
        try {
          const before = await migrateOld(old)
          expect(before.length).toBeGreaterThan(10)
          await seed(old.kysely, dataDir, files)
          // The newest migrations are the ones the commit after the previous release added.
          applied = await migrateToLatest(old)
        } finally {
          await old.kysely.destroy()
        }
        const newest = git('show', '--diff-filter=A', '--name-only', '--format=', added, '--', MIGRATION_FILES)
          .split('\n')
          .filter((f) => /\/\d{4}_\w+\.ts$/.test(f))
          .map((f) => path.basename(f, '.ts'))
        expect(newest.length).toBeGreaterThan(0)
        expect(applied).toEqual(expect.arrayContaining(newest))

        const config = loadConfig({
          TROVE_DATA_DIR: dataDir,
          TROVE_DATABASE_URL: database.url,
          TROVE_LOG_STDOUT: 'false',
          TROVE_WEB_DIR: path.join(work, 'no-console'),
        })
        const app = await buildApp(config)
        try {
          expect(app.firstAdmin).toBeNull()
          const admin = await signIn(app.fastify, 'admin', ADMIN_PASSWORD)
          await signIn(app.fastify, 'alice', 'alice-password-1')
          const get = (url: string) => app.fastify.inject({ url, headers: { cookie: admin.cookie } })
          for (const [where, content] of Object.entries(files)) {
            const [repo, ...rest] = where.split('/')
            const url = repo === 'npm-local' ? `/api/npm/npm-local/${rest.join('/')}` : `/artifactory/${where}`
            const res = await get(url)
            expect(res.statusCode, url).toBe(200)
            expect(sha('sha256', res.rawPayload)).toBe(sha('sha256', content))
            expect(res.headers['x-checksum-sha1']).toBe(sha('sha1', content))
          }
          const packument = await get('/api/npm/npm-local/left-pad')
          expect(packument.statusCode, packument.body).toBe(200)
          expect(packument.json()).toMatchObject({
            'dist-tags': { latest: '1.3.0' },
            versions: { '1.3.0': { name: 'left-pad' } },
          })
          const dist = packument.json().versions['1.3.0'].dist
          expect(dist.shasum).toBe(sha('sha1', tarball))
          expect(dist.tarball).toMatch(/\/left-pad\/-\/left-pad-1\.3\.0\.tgz$/)
          const report = await checkIntegrity({ db: app.db.kysely, dataDir })
          expect(report).toMatchObject({ ok: true, blobsChecked: 2 })
        } finally {
          await app.close()
        }
      } finally {
        await database.drop()
      }
    }, 90_000)
  },
)
