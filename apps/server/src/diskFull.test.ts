import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, MAIN, NODE_ID, query, type ServerProcess, startHarness, storeProblems } from '../test/crash.js'
import { type CrashFlow, genericFlow, type Harness, npmFlow, ociFlow, pypiFlow } from '../test/crashFlows.js'
import { tempDir, throwawayDatabase } from '../test/testApp.js'

/**
 * A full disk: the data dir (and so the SQLite database and the log files; on PostgreSQL only the
 * blob store and the logs) on a 40 MB tmpfs that a filler file fills during the uploads. Each
 * client must be refused with 507 or its format's error, nothing of the refused uploads may be
 * visible or left in the temp dir, reads go on, the process stays up, and once the filler is gone
 * the same uploads succeed. Mounting needs root (CI runs as root); elsewhere the file is skipped.
 */
function mountRefused(): string | undefined {
  const probe = tempDir('trove-tmpfs-probe-')
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' })
    execFileSync('umount', [probe], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    return `mounting a tmpfs was refused (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}): run as root`
  } finally {
    fs.rmSync(probe, { recursive: true, force: true })
  }
}
const refused = mountRefused()
if (refused) console.warn(`diskFull.test.ts skipped: ${refused}`)

const FLOWS: CrashFlow[] = [npmFlow, pypiFlow, ociFlow, genericFlow]
const INSUFFICIENT = /Insufficient storage: the server's disk is full/

/** Writes a file until the file system has no byte left; returns its path. */
function fillDisk(dir: string): string {
  const file = path.join(dir, 'filler')
  const fd = fs.openSync(file, 'a')
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = Buffer.alloc(size, 1)
      for (;;) {
        try {
          if (fs.writeSync(fd, chunk) < size) break
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
          break
        }
      }
    }
  } finally {
    fs.closeSync(fd)
  }
  return file
}

async function signIn(url: string): Promise<Response> {
  return fetch(`${url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
  })
}

/** Incompressible bytes, different for each `n`. */
const bytes = (n: number, size = 256 * 1024) => crypto.createHash('shake256', { outputLength: size }).update(`disk ${n}`).digest()

describe.skipIf(refused !== undefined)('a full disk', () => {
  let mount: string
  let server: ServerProcess
  let h: Harness
  let dropDatabase: () => Promise<void> = async () => {}
  let filler: string | undefined
  const databaseUrl = () => server.databaseUrl

  const put = (url: string, body: Buffer) =>
    fetch(`${server.url}${url}`, { method: 'PUT', headers: { authorization: `Bearer ${h.token}` }, body })
  const get = (url: string) => fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${h.token}` } })
  const mavenJar = (version: string) => `/artifactory/maven-local/com/example/full/${version}/full-${version}.jar`

  beforeAll(async () => {
    expect(fs.existsSync(MAIN), `${MAIN} is missing: run "npm run build" first`).toBe(true)
    mount = tempDir('trove-disk-full-')
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', mount])
    const db = await throwawayDatabase()
    dropDatabase = db.drop
    const dataDir = path.join(mount, 'data')
    fs.mkdirSync(dataDir)
    const started = await startHarness(
      dataDir,
      db.url,
      ['npm', 'pypi', 'docker', 'maven', 'generic'],
      tempDir('trove-disk-full-work-'),
    )
    server = started.server
    h = started.h
    for (const flow of FLOWS) flow.prepare?.(h)
  }, 120_000)

  afterAll(async () => {
    try {
      await h?.proxy.close()
      if (server && !(await Promise.race([server.stop().then(() => true), new Promise((r) => setTimeout(r, 20_000, false))])))
        server.kill()
      await dropDatabase()
    } finally {
      // Unmounted whatever went wrong above (lazily, should a process still hold it).
      if (mount) {
        execFileSync('umount', ['-l', mount])
        fs.rmSync(mount, { recursive: true, force: true })
      }
    }
    if (h) fs.rmSync(h.work, { recursive: true, force: true })
  }, 60_000)

  it('stores every format while there is room', async () => {
    for (const flow of FLOWS) {
      const result = await flow.upload(h, 1)
      expect(result.code, `${flow.name}: ${result.stderr}${result.stdout}`).toBe(0)
    }
    expect((await put(mavenJar('1.0'), bytes(1))).status).toBe(201)
  }, 120_000)

  it('refuses each upload with 507 or its format’s error once the disk is full, and keeps nothing of it', async () => {
    filler = fillDisk(mount)
    // Plain PUTs (Maven, generic): 507 and the message that names the server's disk.
    for (const url of [mavenJar('2.0'), '/artifactory/generic-local/full/big.bin']) {
      const res = await put(url, bytes(2))
      expect(res.status, url).toBe(507)
      expect(((await res.json()) as { errors: { message: string }[] }).errors[0]?.message).toMatch(INSUFFICIENT)
    }
    // The real clients: each fails and says why.
    const said: Record<string, RegExp> = {
      'npm publish': /507[\s\S]*Insufficient storage: the server's disk is full/,
      'twine upload': /507[\s\S]*Insufficient storage: the server's disk is full/,
      'skopeo push': /Insufficient storage: the server's disk is full/,
      'generic PUT': /507/,
    }
    for (const flow of FLOWS) {
      const result = await flow.upload(h, 2)
      expect(result.code, flow.name).not.toBe(0)
      expect(`${result.stderr}${result.stdout}`, flow.name).toMatch(said[flow.name] as RegExp)
    }
    // The OCI registry answers in its own error format.
    const started = await fetch(`${server.url}/v2/docker-local/crash/blobs/uploads/`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`admin:${h.token}`).toString('base64')}` },
    })
    expect(started.status).toBe(507)
    expect(await started.json()).toEqual({ errors: [{ code: 'UNKNOWN', message: expect.stringMatching(INSUFFICIENT) }] })

    // Nothing partial: no temp file, every file row whole, no version of the refused uploads.
    expect(server.running).toBe(true)
    expect(await storeProblems(server.dataDir, databaseUrl())).toEqual([])
    const temp = fs.readdirSync(path.join(server.dataDir, 'blobs', 'tmp'))
    expect(temp.filter((name) => name.startsWith(`${NODE_ID}~`) || name.startsWith('upload-'))).toEqual([])
    const paths = (await query<{ path: string }>(server.dataDir, databaseUrl(), 'SELECT path FROM files')).map((r) => r.path)
    expect(paths.filter((p) => /1\.0\.2|\/2\.0\/|big\.bin|file-2/.test(p))).toEqual([])
    for (const flow of FLOWS) expect(await flow.check(h), flow.name).toEqual([])
  }, 180_000)

  it('serves reads while the disk is full, and a sign-in is answered (200, or 507 when the database cannot grow)', async () => {
    expect(filler).toBeDefined()
    const ping = await fetch(`${server.url}/api/system/ping`)
    expect(ping.status).toBe(200)
    const jar = await get(mavenJar('1.0'))
    expect(jar.status).toBe(200)
    expect(Buffer.from(await jar.arrayBuffer()).equals(bytes(1))).toBe(true)
    const packument = await get('/api/npm/npm-local/crash-npm')
    expect(packument.status).toBe(200)
    expect(Object.keys(((await packument.json()) as { versions: object }).versions)).toEqual(['1.0.1'])
    // Many answered requests: the log file's writer meets the full disk too, and must not end the process.
    for (let i = 0; i < 50; i++) expect((await get('/artifactory/generic-local/crash/file-1.bin')).status).toBe(200)
    // The log file could not take those lines: its writer said so, and the process lives on.
    expect(server.stderr).toContain('cannot write')
    const login = await signIn(server.url)
    expect([200, 507]).toContain(login.status)
    if (login.status === 507)
      expect(((await login.json()) as { errors: { message: string }[] }).errors[0]?.message).toMatch(INSUFFICIENT)
    expect(server.running).toBe(true)
  }, 60_000)

  it('takes the same uploads once space returns', async () => {
    fs.rmSync(filler as string)
    for (const flow of FLOWS) {
      const result = await flow.upload(h, 2)
      expect(result.code, `${flow.name}: ${result.stderr}${result.stdout}`).toBe(0)
    }
    expect((await put(mavenJar('2.0'), bytes(2))).status).toBe(201)
    expect((await put('/artifactory/generic-local/full/big.bin', bytes(2))).status).toBe(201)
    const login = await signIn(server.url)
    expect(login.status).toBe(200)
    for (const flow of FLOWS) expect(await flow.check(h), flow.name).toEqual([])
    expect(await storeProblems(server.dataDir, databaseUrl())).toEqual([])
    // The log file is written again (with what waited in memory, and a line that says so).
    const marker = `after-the-disk-was-full-${crypto.randomBytes(4).toString('hex')}`
    await fetch(`${server.url}/api/system/ping`, { headers: { 'x-request-id': marker } })
    await get('/artifactory/generic-local/full/big.bin')
    const log = fs.readFileSync(path.join(server.dataDir, 'logs', 'trove.log'), 'utf8')
    if (server.stderr.includes('cannot write')) expect(log).toContain('the log file can be written again')
    expect(log).toContain('/artifactory/generic-local/full/big.bin')
    expect(server.running).toBe(true)
  }, 180_000)

  it('serves reads while a slow client streams an upload', async () => {
    expect((await put('/artifactory/generic-local/slow/read.bin', bytes(9))).status).toBe(201)
    const url = new URL(`${server.url}/artifactory/generic-local/slow/upload.bin`)
    const chunks = [bytes(10, 64 * 1024), bytes(11, 64 * 1024), bytes(12, 64 * 1024)]
    let answered: (status: number) => void = () => {}
    const done = new Promise<number>((resolve) => {
      answered = resolve
    })
    const upload = http.request(
      url,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${h.token}`, 'content-length': String(64 * 1024 * chunks.length) },
      },
      (res) => {
        res.resume()
        answered(res.statusCode ?? 0)
      },
    )
    upload.on('error', () => answered(0))
    let finished = false
    done.then(() => {
      finished = true
    })
    try {
      const send = (chunk: Buffer) => new Promise<void>((resolve) => upload.write(chunk, () => resolve()))
      for (const chunk of chunks.slice(0, -1)) {
        await send(chunk)
        // While the upload waits for its next bytes, other requests are answered in full.
        const read = await get('/artifactory/generic-local/slow/read.bin')
        expect(read.status).toBe(200)
        expect(Buffer.from(await read.arrayBuffer()).equals(bytes(9))).toBe(true)
        expect((await fetch(`${server.url}/api/system/ping`)).status).toBe(200)
        expect(finished).toBe(false)
      }
      await send(chunks.at(-1) as Buffer)
      upload.end()
      expect(await done).toBe(201)
    } finally {
      // A failed check must not leave the request open: the server's stop would wait for it.
      if (!finished) upload.destroy()
    }
    const stored = await get('/artifactory/generic-local/slow/upload.bin')
    expect(Buffer.from(await stored.arrayBuffer()).equals(Buffer.concat(chunks))).toBe(true)
  }, 60_000)
})
