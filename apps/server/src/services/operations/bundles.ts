import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import type { BundleParameters, ServiceType, SupportBundle } from '@trove/contracts/operations'
import archiver from 'archiver'
import type { Kysely } from 'kysely'
import type { Config } from '../../core/config.js'
import { REDACTED, viewOfConfig, viewOfSettings } from '../../core/configView.js'
import type { Db } from '../../core/db.js'
import type { Database, SupportBundlesTable } from '../../core/schema.js'
import { listLogFiles } from './logs.js'
import { isFresh } from './nodes.js'

export const bundleDir = (dataDir: string) => path.join(dataDir, 'support')
export const bundleFile = (dataDir: string, id: string) => path.join(bundleDir(dataDir), `${id}.zip`)

const SECRET_KEY = /pass|secret|token|credential|private|(^|_)key$|apikey|databaseurl|database_url/i

/** Replaces bytes, every value under a secret-sounding key, and the password in any URL, with ***. */
export function redact(value: unknown, key = ''): unknown {
  if (value === null || value === undefined) return value
  // Bytes are a key or a secret's value whatever they are called.
  if (value instanceof Uint8Array) return REDACTED
  if (SECRET_KEY.test(key) && typeof value !== 'object') {
    return typeof value === 'string' && /^[a-z]+:\/\//i.test(value) ? redactUrl(value) : REDACTED
  }
  if (Array.isArray(value)) return value.map((v) => redact(v))
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redact(v, k)]))
  }
  return typeof value === 'string' ? redactUrl(value) : value
}

function redactUrl(value: string): string {
  return value.replace(/([a-z][\w+.-]*:\/\/[^:/@\s]*):[^@/\s]+@/gi, `$1:${REDACTED}@`)
}

function row(r2: SupportBundlesTable, nodeFresh: (nodeId: string) => boolean): SupportBundle {
  // A bundle whose node went away while writing it will never finish.
  const status = r2.status === 'in_progress' && !nodeFresh(r2.node_id) ? 'failed' : r2.status
  return {
    id: r2.id,
    name: r2.name,
    description: r2.description,
    service: r2.service as ServiceType,
    node_id: r2.node_id,
    create_date: r2.created_at,
    status: status as SupportBundle['status'],
    size: r2.size,
    parameters: JSON.parse(r2.parameters) as BundleParameters,
  }
}

export async function listBundles(db: Kysely<Database>, now = Date.now()): Promise<SupportBundle[]> {
  const [rows, nodes] = await Promise.all([
    db.selectFrom('support_bundles').selectAll().orderBy('created_at', 'desc').execute(),
    db.selectFrom('nodes').select(['node_id', 'last_heartbeat', 'heartbeat_ms']).execute(),
  ])
  const fresh = new Map(nodes.map((n) => [n.node_id, isFresh(n.last_heartbeat, n.heartbeat_ms, now)]))
  return rows.map((r) => row(r, (id) => fresh.get(id) ?? false))
}

export async function getBundle(db: Kysely<Database>, id: string) {
  return db.selectFrom('support_bundles').selectAll().where('id', '=', id).executeTakeFirst()
}

export interface BundleSources {
  config: Config
  db: Db
  version: string
  nodeId: string
  /** Aborted when the server is closing: a bundle still being written stops and is marked failed. */
  signal: AbortSignal
}

const DAY_MS = 24 * 60 * 60 * 1000

/** The time of the first line of a log file (pino writes "time":"<ISO>"), or its mtime if unreadable. */
async function firstLineTime(file: string, fallback: number): Promise<number> {
  const handle = await fs.promises.open(file, 'r')
  try {
    const buffer = Buffer.alloc(512)
    const { bytesRead } = await handle.read(buffer, 0, 512, 0)
    const match = buffer.toString('utf8', 0, bytesRead).match(/"time":"([^"]+)"/)
    const t = match?.[1] ? Date.parse(match[1]) : Number.NaN
    return Number.isNaN(t) ? fallback : t
  } finally {
    await handle.close()
  }
}

/** The log files holding lines in [start day 00:00, end day 24:00) UTC; all of them without dates. */
export async function logsInRange(dir: string, startDate?: string, endDate?: string): Promise<string[]> {
  const from = startDate ? Date.parse(`${startDate}T00:00:00Z`) : Number.NEGATIVE_INFINITY
  const to = endDate ? Date.parse(`${endDate}T00:00:00Z`) + DAY_MS : Number.POSITIVE_INFINITY
  const out: string[] = []
  for (const name of await listLogFiles(dir)) {
    const file = path.join(dir, name)
    const stat = await fs.promises.stat(file)
    if (stat.mtimeMs < from) continue
    if ((await firstLineTime(file, stat.mtimeMs)) >= to) continue
    out.push(name)
  }
  return out
}

export function systemInformation(sources: BundleSources) {
  let disk: { total: number; free: number } | null = null
  try {
    const s = fs.statfsSync(sources.config.dataDir)
    disk = { total: s.blocks * s.bsize, free: s.bavail * s.bsize }
  } catch {
    disk = null
  }
  return {
    trove: { version: sources.version, node_id: sources.nodeId, modules: sources.config.node.modules },
    runtime: { node: process.versions.node, v8: process.versions.v8, pid: process.pid, uptime_s: Math.round(process.uptime()) },
    memory: process.memoryUsage(),
    os: {
      type: os.type(),
      release: os.release(),
      arch: os.arch(),
      hostname: os.hostname(),
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? null,
      load_average: os.loadavg(),
      total_memory: os.totalmem(),
      free_memory: os.freemem(),
      uptime_s: os.uptime(),
    },
    database: { dialect: sources.db.dialect, location: sources.db.location },
    data_dir: { path: sources.config.dataDir, disk },
  }
}

/**
 * Environment variables a diagnostic report keeps, by name; every other one shows its name only.
 * TROVE_* settings are in the configuration file, through its allow-list.
 */
const SHOWN_ENVIRONMENT = /^(PATH|HOME|USER|LANG|LC_\w+|TZ|NODE_ENV|NODE_OPTIONS|UV_THREADPOOL_SIZE|HOSTNAME|PWD|SHELL|TERM)$/

/** A diagnostic report of the process (stacks, heap, handles), its environment through an allow-list. */
export function diagnosticReport(): unknown {
  const report = process.report.getReport() as unknown as Record<string, unknown>
  const env = (report.environmentVariables ?? {}) as Record<string, string>
  report.environmentVariables = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, SHOWN_ENVIRONMENT.test(name) ? value : REDACTED]),
  )
  return redact(report)
}

/**
 * Writes the bundle's zip to <data dir>/support/<id>.zip, streamed: log files are piped into the
 * archive and the archive onto disk, so memory stays flat whatever the size of the logs.
 */
export async function writeBundle(
  sources: BundleSources,
  bundle: { id: string; name: string; description: string; service: ServiceType; created_at: number },
  parameters: BundleParameters,
): Promise<number> {
  const dir = bundleDir(sources.config.dataDir)
  await fs.promises.mkdir(dir, { recursive: true })
  const target = bundleFile(sources.config.dataDir, bundle.id)
  const partial = `${target}.partial`
  const zip = archiver('zip', { zlib: { level: 1 } })
  const out = fs.createWriteStream(partial)
  const written = pipeline(zip, out)
  // Closing: destroying the file stream fails the pipeline at once, even mid-way through a log file.
  const stop = () => out.destroy(new Error('the server is closing'))
  sources.signal.addEventListener('abort', stop, { once: true })
  const check = () => {
    if (sources.signal.aborted) throw new Error('the server is closing')
  }
  try {
    zip.append(
      JSON.stringify(
        {
          id: bundle.id,
          name: bundle.name,
          description: bundle.description,
          service: bundle.service,
          node_id: sources.nodeId,
          created: new Date(bundle.created_at).toISOString(),
          parameters,
        },
        null,
        2,
      ),
      { name: 'manifest.json' },
    )
    if (parameters.configuration) {
      const settings = await sources.db.kysely.selectFrom('settings').select(['key', 'value']).execute()
      // Through the allow-list (core/configView.ts): a secret shows only whether it is set.
      const config = { environment: viewOfConfig(sources.config), settings: viewOfSettings(settings) }
      zip.append(JSON.stringify(config, null, 2), { name: 'configuration/trove-config.json' })
    }
    if (parameters.system) zip.append(JSON.stringify(systemInformation(sources), null, 2), { name: 'system/system-info.json' })
    if (parameters.logs.include) {
      const logDir = sources.config.log.dir
      for (const name of await logsInRange(logDir, parameters.logs.start_date, parameters.logs.end_date)) {
        check()
        zip.append(fs.createReadStream(path.join(logDir, name)), { name: `logs/${name}` })
      }
    }
    for (let n = 1; n <= parameters.thread_dump.count; n++) {
      check()
      if (n > 1 && parameters.thread_dump.interval > 0)
        await sleep(parameters.thread_dump.interval, undefined, { signal: sources.signal })
      zip.append(JSON.stringify(diagnosticReport(), null, 2), { name: `thread_dumps/report-${n}.json` })
    }
    // finalize() alone would wait forever on a destroyed pipeline: whichever fails first wins.
    await Promise.all([zip.finalize(), written])
    // An abort ends the archive early: what is on disk then is not a whole bundle.
    check()
    await fs.promises.rename(partial, target)
    return (await fs.promises.stat(target)).size
  } catch (error) {
    zip.abort()
    out.destroy()
    await written.catch(() => undefined)
    await fs.promises.rm(partial, { force: true })
    throw error
  } finally {
    sources.signal.removeEventListener('abort', stop)
  }
}

export const newBundleId = () =>
  `${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${crypto.randomBytes(6).toString('hex')}`
