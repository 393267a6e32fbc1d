import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAIN, NODE_ID, query, type ServerProcess, startHarness, storeProblems } from '../test/crash.js'
import { type CrashFlow, genericFlow, type Harness, npmFlow, ociFlow, pypiFlow } from '../test/crashFlows.js'
import { tempDir, throwawayDatabase } from '../test/testApp.js'

/**
 * A slow disk: the data dir (and so the SQLite database, the blob store and the logs; on
 * PostgreSQL the blob store and the logs) on a FUSE file system (test/slowfs.py) whose writes take
 * 2 ms each plus their length at 4 MB/s, and whose fsyncs take 30 ms. The real clients' uploads
 * must all succeed, an upload that crawls must stay invisible until it is whole, reads must be
 * answered while uploads crawl (more of them than Node's four file-system threads), and nothing
 * partial may be left. Needs /dev/fuse, Debian's python3-fusepy and root to mount; elsewhere the
 * file is skipped and says why.
 */
const SLOWFS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test/slowfs.py')
const PYTHON = '/usr/bin/python3'

function mounted(mount: string): boolean {
  return fs.readFileSync('/proc/mounts', 'utf8').includes(` ${mount} fuse`)
}

/** Why the slow disk cannot be had here (no FUSE, no fusepy, mounting refused), or undefined. */
async function slowFsRefused(): Promise<string | undefined> {
  if (!fs.existsSync('/dev/fuse')) return 'no /dev/fuse'
  try {
    execFileSync(PYTHON, ['-c', 'import fusepy'], { stdio: 'pipe' })
  } catch {
    return `${PYTHON} cannot import fusepy (Debian's python3-fusepy)`
  }
  const [backing, mount] = [tempDir('trove-slowfs-probe-'), tempDir('trove-slowfs-probe-')]
  try {
    const fuse = await mountSlowFs(backing, mount)
    execFileSync('umount', ['-l', mount])
    fuse.kill()
    return undefined
  } catch (error) {
    return `mounting the slow file system was refused (${(error as Error).message.trim()}): run as root`
  } finally {
    fs.rmSync(mount, { recursive: true, force: true })
    fs.rmSync(backing, { recursive: true, force: true })
  }
}
const refused = await slowFsRefused()
if (refused) console.warn(`slowDisk.test.ts skipped: ${refused}`)

const FLOWS: CrashFlow[] = [npmFlow, pypiFlow, ociFlow, genericFlow]
/** Incompressible bytes, different for each `n`. */
const bytes = (n: number, size: number) => crypto.createHash('shake256', { outputLength: size }).update(`slow ${n}`).digest()
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex')

/** Mounts the slow file system over `backing` at `mount`; resolves once it is mounted. */
async function mountSlowFs(backing: string, mount: string): Promise<ChildProcess> {
  const fuse = spawn(PYTHON, [SLOWFS, backing, mount, '0.002', String(4 * 1024 * 1024), '0.03'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  fuse.stderr?.on('data', (d) => {
    stderr += d
  })
  for (let i = 0; i < 200 && !mounted(mount); i++) {
    if (fuse.exitCode !== null) throw new Error(`slowfs.py ended: ${stderr}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  if (!mounted(mount)) {
    fuse.kill()
    throw new Error(`slowfs.py did not mount ${mount}: ${stderr}`)
  }
  return fuse
}

describe.skipIf(refused !== undefined)('a slow disk', () => {
  let backing: string
  let mount: string
  let fuse: ChildProcess | undefined
  let server: ServerProcess
  let h: Harness
  let dropDatabase: () => Promise<void> = async () => {}
  const auth = () => ({ authorization: `Bearer ${h.token}` })
  const put = (url: string, body: Buffer) => fetch(`${server.url}${url}`, { method: 'PUT', headers: auth(), body })
  const get = (url: string) => fetch(`${server.url}${url}`, { headers: auth(), signal: AbortSignal.timeout(60_000) })

  beforeAll(async () => {
    expect(fs.existsSync(MAIN), `${MAIN} is missing: run "npm run build" first`).toBe(true)
    backing = tempDir('trove-slow-disk-backing-')
    mount = tempDir('trove-slow-disk-')
    fuse = await mountSlowFs(backing, mount)
    const db = await throwawayDatabase()
    dropDatabase = db.drop
    const dataDir = path.join(mount, 'data')
    fs.mkdirSync(dataDir)
    const started = await startHarness(dataDir, db.url, ['npm', 'pypi', 'docker', 'generic'], tempDir('trove-slow-disk-work-'))
    server = started.server
    h = started.h
    for (const flow of FLOWS) flow.prepare?.(h)
  }, 180_000)

  afterAll(async () => {
    try {
      await h?.proxy.close()
      if (server && !(await Promise.race([server.stop().then(() => true), new Promise((r) => setTimeout(r, 30_000, false))])))
        server.kill()
      await dropDatabase()
    } finally {
      if (mount && mounted(mount)) execFileSync('umount', ['-l', mount])
      fuse?.kill()
      for (const dir of [mount, backing, h?.work]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('takes every client’s upload', async () => {
    for (const flow of FLOWS) {
      const result = await flow.upload(h, 1)
      expect(result.code, `${flow.name}: ${result.stderr}${result.stdout}`).toBe(0)
      expect(await flow.check(h), flow.name).toEqual([])
    }
  }, 300_000)

  it('keeps an upload invisible until it is whole, and answers reads meanwhile', async () => {
    const small = bytes(0, 2048)
    expect((await put('/artifactory/generic-local/slow/small.bin', small)).status).toBe(201)
    // 8 MB at 4 MB/s: two seconds at least on the disk.
    const big = bytes(1, 8 * 1024 * 1024)
    const upload = put('/artifactory/generic-local/slow/big.bin', big)
    let finished = false
    void upload.then(() => {
      finished = true
    })
    let reads = 0
    let unseen = 0
    while (!finished) {
      const read = await get('/artifactory/generic-local/slow/small.bin')
      expect(read.status).toBe(200)
      expect(Buffer.from(await read.arrayBuffer()).equals(small)).toBe(true)
      reads++
      const early = await get('/artifactory/generic-local/slow/big.bin')
      await early.arrayBuffer()
      if (!finished) {
        expect(early.status).toBe(404)
        unseen++
      }
    }
    expect((await upload).status).toBe(201)
    expect(reads).toBeGreaterThan(1)
    expect(unseen).toBeGreaterThan(0)
    const whole = await get('/artifactory/generic-local/slow/big.bin')
    expect(whole.status).toBe(200)
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(big))
  }, 300_000)

  it('takes more uploads at once than Node has file-system threads, answering reads throughout', async () => {
    const files = Array.from({ length: 8 }, (_, i) => bytes(10 + i, 1024 * 1024))
    const uploads = Promise.all(files.map((data, i) => put(`/artifactory/generic-local/many/${i}.bin`, data)))
    let done = false
    void uploads.then(() => {
      done = true
    })
    let reads = 0
    while (!done) {
      const [ping, packument] = await Promise.all([
        fetch(`${server.url}/api/system/ping`, { signal: AbortSignal.timeout(60_000) }),
        get('/api/npm/npm-local/crash-npm'),
      ])
      expect(ping.status).toBe(200)
      expect(packument.status).toBe(200)
      await packument.arrayBuffer()
      reads++
    }
    expect((await uploads).map((r) => r.status)).toEqual(files.map(() => 201))
    expect(reads).toBeGreaterThan(0)
    for (const [i, data] of files.entries()) {
      const back = await get(`/artifactory/generic-local/many/${i}.bin`)
      expect(sha256(Buffer.from(await back.arrayBuffer())), `file ${i}`).toBe(sha256(data))
    }
  }, 300_000)

  it('leaves nothing partial behind', async () => {
    expect(server.running).toBe(true)
    expect(await storeProblems(server.dataDir, server.databaseUrl)).toEqual([])
    const temp = fs.readdirSync(path.join(server.dataDir, 'blobs', 'tmp'))
    expect(temp.filter((name) => name.startsWith(`${NODE_ID}~`) || name.startsWith('upload-'))).toEqual([])
    const rows = await query<{ n: number | string }>(
      server.dataDir,
      server.databaseUrl,
      "SELECT count(*) AS n FROM files WHERE path LIKE 'many/%'",
    )
    expect(Number(rows[0]?.n)).toBe(8)
  }, 60_000)
})
