import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminToken, KillingProxy, MAIN, ServerProcess, storeProblems } from '../test/crash.js'
import { type CrashFlow, FLOWS, type Harness } from '../test/crashFlows.js'
import { tempDir, throwawayDatabase } from '../test/testApp.js'

/**
 * Crash consistency: each client's upload is cut by SIGKILL at points along its bytes (a proxy
 * kills the server once the client has sent so much) and at each step where a write becomes
 * durable (`TROVE_CRASH_AT`, core/crashPoints.ts). After each kill the server starts again and
 * must hold nothing half-visible and no temp file of the dead request, and the client's retry must
 * succeed. `TROVE_CRASH_POINTS` (npm run bench -- reliability) asks for that many kill points per
 * format; by default a short variant runs: a few offsets and each crash point once.
 */
const LONG = Number(process.env.TROVE_CRASH_POINTS ?? 0)
const REPORT = process.env.TROVE_CRASH_REPORT
const FORMATS = process.env.TROVE_CRASH_FORMATS?.split(',')

interface KillPoint {
  /** Bytes the client sends before the kill, or the crash point (`<point>#<n>`). */
  offset?: number
  at?: string
}

/** Spread `count` offsets over the bytes a client sends, and take the crash points the trace lists. */
function plan(bytes: number, trace: string[], total: number): KillPoint[] {
  const occurrences: string[] = []
  const seen = new Map<string, number>()
  for (const point of trace) {
    const n = (seen.get(point) ?? 0) + 1
    seen.set(point, n)
    occurrences.push(`${point}#${n}`)
  }
  let hooks: string[]
  let offsets: number
  if (total > 0) {
    hooks = occurrences.slice(0, Math.floor(total / 2))
    offsets = total - hooks.length
  } else {
    // Each crash point at its last occurrence (the step that completes the upload), and two offsets.
    hooks = [...seen.keys()].map((p) => `${p}#${seen.get(p)}`)
    offsets = 2
  }
  const points: KillPoint[] = hooks.map((at) => ({ at }))
  for (let i = 1; i <= offsets; i++) points.push({ offset: Math.max(1, Math.floor((bytes * i) / (offsets + 1))) })
  return points
}

interface FlowResult {
  format: string
  database: string
  bytes: number
  tried: number
  byOffset: number
  byStep: number
  notReached: number
  /** The crash points one upload passes, in order. */
  trace: string[]
  /** Kill points this upload did not reach. */
  unreached: string[]
  failures: string[]
}
const results: FlowResult[] = []

/** Writes the figures so far: a long run stopped early still reports the points it tried. */
function writeReport(): void {
  if (REPORT) fs.writeFileSync(REPORT, JSON.stringify(results, null, 2))
}
afterAll(writeReport)

/** The store as `trove doctor` sees it through the running server: its problems, if any. */
async function doctor(h: Harness): Promise<string[]> {
  const res = await fetch(`${h.proxy.url}/api/system/doctor`, { method: 'POST', headers: { authorization: `Bearer ${h.token}` } })
  if (res.status !== 200) return [`doctor: ${res.status} ${await res.text()}`]
  const report = (await res.json()) as { ok: boolean }
  return report.ok ? [] : [`doctor: ${JSON.stringify(report)}`]
}

const flows = FLOWS.filter((f) => !FORMATS || FORMATS.includes(f.repo.packageType))

describe.each(flows)('a server killed during $name', (flow: CrashFlow) => {
  let server: ServerProcess
  let h: Harness
  let dropDatabase: () => Promise<void>

  beforeAll(async () => {
    expect(fs.existsSync(MAIN), `${MAIN} is missing: run "npm run build" first`).toBe(true)
    const db = await throwawayDatabase()
    dropDatabase = db.drop
    server = new ServerProcess(tempDir('trove-crash-'), db.url)
    await server.start()
    const proxy = new KillingProxy(server)
    await proxy.listen()
    h = { proxy, token: await adminToken(server.url), work: tempDir('trove-crash-work-') }
    const created = await fetch(`${server.url}/api/repositories/${flow.repo.key}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: flow.repo.packageType }),
    })
    expect(created.status, await created.text()).toBe(201)
    flow.prepare?.(h)
  }, 120_000)

  afterAll(async () => {
    await h?.proxy.close()
    await server?.stop()
    await dropDatabase?.()
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true })
    if (h) fs.rmSync(h.work, { recursive: true, force: true })
  })

  it(
    'leaves nothing half-visible, no temp file of the dead request, and the retry succeeds',
    async () => {
      const result: FlowResult = {
        format: flow.name,
        database: process.env.TROVE_TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite',
        bytes: 0,
        tried: 0,
        byOffset: 0,
        byStep: 0,
        notReached: 0,
        trace: [],
        unreached: [],
        failures: [],
      }
      results.push(result)
      let n = 0
      // The first upload creates the package; the second, traced, is what every later one does.
      const first = await flow.upload(h, n++)
      expect(first.code, first.stderr + first.stdout).toBe(0)
      const traceFile = path.join(h.work, 'trace')
      await server.stop()
      await server.start({ TROVE_CRASH_TRACE: traceFile })
      h.proxy.arm(undefined)
      const traced = await flow.upload(h, n++)
      expect(traced.code, traced.stderr + traced.stdout).toBe(0)
      result.bytes = h.proxy.bytesSent
      const trace = fs.readFileSync(traceFile, 'utf8').split('\n').filter(Boolean)
      result.trace = trace
      await server.stop()
      await server.start()

      for (const point of plan(result.bytes, trace, LONG)) {
        const label = point.at ?? `byte ${point.offset}`
        const version = n++
        if (point.at) {
          await server.stop()
          await server.start({ TROVE_CRASH_AT: point.at })
          h.proxy.arm(undefined)
        } else {
          h.proxy.arm(point.offset)
        }
        const cut = await flow.upload(h, version)
        // The client may see the cut before this process sees the server's end.
        if (!(await server.endsWithin(cut.code !== 0 || h.proxy.fired ? 10_000 : 200))) {
          // The point was not reached (this upload passed it fewer times, or sent fewer bytes).
          result.notReached++
          result.unreached.push(label)
          if (point.at) {
            await server.stop()
            await server.start()
          }
          continue
        }
        expect(await server.ended()).toBe('SIGKILL')
        result.tried++
        if (point.at) result.byStep++
        else result.byOffset++
        h.proxy.arm(undefined)
        await server.start()
        for (const problem of [
          ...(await storeProblems(server.dataDir, server.databaseUrl)),
          ...(await doctor(h)),
          ...(await flow.check(h)),
        ]) {
          result.failures.push(`${label}, after restart: ${problem}`)
        }
        const retry = await flow.upload(h, version)
        if (retry.code !== 0 && !(await flow.alreadyThere?.(h, version, retry)))
          result.failures.push(`${label}: the retry failed: ${(retry.stderr + retry.stdout).trim().slice(0, 400)}`)
        for (const problem of [
          ...(await storeProblems(server.dataDir, server.databaseUrl)),
          ...(await doctor(h)),
          ...(await flow.check(h)),
        ]) {
          result.failures.push(`${label}, after the retry: ${problem}`)
        }
        writeReport()
      }
      expect(result.failures).toEqual([])
      expect(result.tried).toBeGreaterThan(0)
    },
    LONG > 0 ? 4 * 3_600_000 : 1_800_000,
  )
})
