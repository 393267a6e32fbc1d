import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, npmPublishBody, run } from '../../../test/clients.js'
import {
  ADMIN_PASSWORD,
  createTestApp,
  type Session,
  sessionHeaders,
  signIn,
  type TestApp,
  tempDir,
  throwawayDatabase,
} from '../../../test/testApp.js'
import { buildApp } from '../../app.js'
import { loadConfig } from '../../core/config.js'
import { BackupError, backup, restore } from './backup.js'

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/src/main.js')
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex')
const sha1 = (data: Buffer) => crypto.createHash('sha1').update(data).digest('hex')

/** The built server's maintenance command, with only the given settings. */
const command = (args: string[], env: Record<string, string | undefined>) =>
  run(process.execPath, [main, ...args], {
    cwd: path.dirname(main),
    env: Object.fromEntries(Object.entries({ TROVE_LOG_STDOUT: 'false', ...env }).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >,
  })

/**
 * Backup and restore end to end on the built server's commands: packages published through the
 * real protocols, a backup of the live node, a restore onto a new data dir (and a new database),
 * and the app started on it serves every file with its checksum. Runs on SQLite, and on PostgreSQL
 * when TROVE_TEST_DATABASE_URL is set.
 */
describe('backup and restore', () => {
  let t: TestApp
  let admin: Session
  const work = tempDir('trove-backup-')
  const stored = new Map<string, Buffer>()

  const deploy = async (url: string, payload: Buffer | Record<string, unknown>) => {
    const res = await t.fastify.inject({ method: 'PUT', url, headers: sessionHeaders(admin), payload })
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201)
  }

  beforeAll(async () => {
    // An older build would take the command for no command and start serving instead.
    const commands = path.join(path.dirname(main), 'commands.js')
    expect(fs.existsSync(commands), `${commands} is missing: run "npm run build -w @trove/server" first`).toBe(true)
    t = await createTestApp()
    admin = await signIn(t.fastify)
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'maven-local', { rclass: 'local', packageType: 'maven' })
    await createRepo(t.fastify, admin, 'files', { rclass: 'local', packageType: 'generic' })

    for (const version of ['1.0.0', '1.1.0']) {
      const { body, tarball } = await npmPublishBody('http://localhost', 'npm-local', { name: 'kept', version })
      await deploy('/api/npm/npm-local/kept', body)
      stored.set(`/api/npm/npm-local/kept/-/kept-${version}.tgz`, tarball)
    }
    const jar = crypto.randomBytes(20_000)
    const pom = Buffer.from(
      '<project><modelVersion>4.0.0</modelVersion><groupId>org.example</groupId><artifactId>lib</artifactId><version>1.0</version></project>',
    )
    for (const [file, content] of [
      ['org/example/lib/1.0/lib-1.0.jar', jar],
      ['org/example/lib/1.0/lib-1.0.pom', pom],
    ] as const) {
      await deploy(`/artifactory/maven-local/${file}`, content)
      stored.set(`/artifactory/maven-local/${file}`, content)
    }
    const notes = Buffer.from('release notes\n'.repeat(50))
    await deploy('/artifactory/files/docs/notes.txt', notes)
    stored.set('/artifactory/files/docs/notes.txt', notes)
    // The same content twice: one blob, two file rows.
    await deploy('/artifactory/files/docs/copy.txt', notes)
    stored.set('/artifactory/files/docs/copy.txt', notes)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('backs up a serving node and restores it onto a new data dir, where every file downloads intact', async () => {
    const backupDir = path.join(work, 'backup')
    const source = { TROVE_DATA_DIR: t.dataDir, TROVE_DATABASE_URL: t.config.databaseUrl }
    // A blob row whose file never landed (an upload cut off) is left out, not an error.
    const cutOff = 'f'.repeat(64)
    await t.app.db.kysely
      .insertInto('blobs')
      .values({ sha256: cutOff, size: 3, sha1: '', md5: '', created_at: Date.now(), touched_at: Date.now() })
      .execute()

    const blobs = (await t.app.db.kysely.selectFrom('blobs').select('sha256').execute()).length - 1
    const made = await command(['backup', backupDir], source)
    expect(made.code, made.stderr).toBe(0)
    expect(made.stdout).toMatch(/Backup written to .*: the (sqlite|postgres) database, \d+ blobs/)
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'backup.json'), 'utf8'))
    expect(manifest).toMatchObject({ format: 1, blobs, skipped: 1, dataFiles: expect.arrayContaining(['secrets']) })
    expect(manifest.database).toBe(t.config.databaseUrl ? 'postgres' : 'sqlite')
    expect(fs.existsSync(path.join(backupDir, t.config.databaseUrl ? 'database.dump' : 'trove.db'))).toBe(true)
    expect(manifest.migrations).toContain('0030_repositories')

    // Writes after the backup are not in it.
    await deploy('/artifactory/files/docs/later.txt', Buffer.from('after the backup\n'))

    const target = await throwawayDatabase()
    const restoredDir = path.join(work, 'restored')
    const restoredEnv = { TROVE_DATA_DIR: restoredDir, TROVE_DATABASE_URL: target.url }
    try {
      const restored = await command(['restore', backupDir], restoredEnv)
      expect(restored.code, restored.stderr).toBe(0)
      expect(restored.stdout).toContain(`Restored ${blobs} blobs`)
      // A second restore onto the same place is refused.
      const again = await command(['restore', backupDir], restoredEnv)
      expect(again.code).toBe(1)
      expect(again.stderr).toMatch(/already holds|not empty/)

      const doctor = await command(['doctor', '--json'], restoredEnv)
      expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0)
      expect(JSON.parse(doctor.stdout)).toMatchObject({
        ok: true,
        blobsChecked: blobs + 1,
        missing: [expect.objectContaining({ referenced: false })],
      })

      const config = loadConfig({
        ...restoredEnv,
        TROVE_LOG_STDOUT: 'false',
        TROVE_WEB_DIR: path.join(restoredDir, 'no-console'),
      })
      const app = await buildApp(config)
      try {
        // The administrator and their password came along.
        const session = await signIn(app.fastify, 'admin', ADMIN_PASSWORD)
        for (const [url, content] of stored) {
          const res = await app.fastify.inject({ url, headers: sessionHeaders(session) })
          expect(res.statusCode, url).toBe(200)
          expect(sha256(res.rawPayload), url).toBe(sha256(content))
        }
        const checksum = await app.fastify.inject({
          url: '/artifactory/maven-local/org/example/lib/1.0/lib-1.0.jar.sha1',
          headers: sessionHeaders(session),
        })
        expect(checksum.body.trim()).toBe(sha1(stored.get('/artifactory/maven-local/org/example/lib/1.0/lib-1.0.jar') as Buffer))
        const packument = await app.fastify.inject({ url: '/api/npm/npm-local/kept', headers: sessionHeaders(session) })
        expect(Object.keys(packument.json().versions)).toEqual(['1.0.0', '1.1.0'])
        expect(packument.json()['dist-tags']).toEqual({ latest: '1.1.0' })
        const later = await app.fastify.inject({ url: '/artifactory/files/docs/later.txt', headers: sessionHeaders(session) })
        expect(later.statusCode).toBe(404)
      } finally {
        await app.close()
      }
    } finally {
      await target.drop()
    }
  }, 120_000)

  it('refuses a backup inside the data dir, into a non-empty directory, a restore of an unfinished one, and bad usage', async () => {
    await expect(backup(t.config, path.join(t.dataDir, 'backup'))).rejects.toThrow(/inside the data dir/)
    const full = path.join(work, 'full')
    fs.mkdirSync(full)
    fs.writeFileSync(path.join(full, 'something'), 'x')
    await expect(backup(t.config, full)).rejects.toThrow(BackupError)
    const fresh = loadConfig({ TROVE_DATA_DIR: path.join(work, 'fresh') })
    await expect(restore(fresh, full)).rejects.toThrow(/no finished backup/)
    const unknown = await command(['backup'], { TROVE_DATA_DIR: t.dataDir })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Usage:')
    const nothing = await command(['doctor'], { TROVE_DATA_DIR: path.join(work, 'nowhere') })
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('No database at')
  })

  it('refuses to back up a corrupt blob rather than carry it forward', async () => {
    const notes = stored.get('/artifactory/files/docs/notes.txt') as Buffer
    const sum = sha256(notes)
    const file = path.join(t.dataDir, 'blobs', sum.slice(0, 2), sum.slice(2, 4), sum)
    fs.writeFileSync(file, Buffer.from(notes).fill(0x20, 0, 5))
    try {
      const made = await command(['backup', path.join(work, 'corrupt')], {
        TROVE_DATA_DIR: t.dataDir,
        TROVE_DATABASE_URL: t.config.databaseUrl,
      })
      expect(made.code).toBe(1)
      expect(made.stderr).toContain(`Blob ${sum} is corrupt`)
      const doctor = await command(['doctor'], { TROVE_DATA_DIR: t.dataDir, TROVE_DATABASE_URL: t.config.databaseUrl })
      expect(doctor.code).toBe(1)
      expect(doctor.stdout).toContain('Corrupt blob files')
    } finally {
      fs.writeFileSync(file, notes)
    }
  })
})
