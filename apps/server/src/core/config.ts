import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { MODULE_TYPES, SERVICE_TYPES, type ServiceType } from '@trove/contracts/operations'
import { z } from 'zod'

const here = path.dirname(fileURLToPath(import.meta.url))

/**
 * What a node runs when TROVE_MODULES is not set: every module Trove has (MODULE_TYPES, which the
 * console's topology reads too), so a single node is the whole product (a cluster may still split
 * them). The other service types are names the console knows; no module of Trove runs them.
 */
export const DEFAULT_MODULES: readonly ServiceType[] = MODULE_TYPES
/** The built console (apps/web/dist), from the folder this module runs in: src/core/ in tests, dist/src/core/ when built. */
export const webDirFrom = (folder: string) =>
  path.resolve(folder, folder.includes(`${path.sep}dist${path.sep}`) ? '../../../../web/dist' : '../../../web/dist')
const defaultWebDir = webDirFrom(here)

const port = z.coerce
  .number({ error: 'expected a whole number between 0 and 65535' })
  .int('expected a whole number between 0 and 65535')
  .min(0, 'expected a whole number between 0 and 65535')
  .max(65535, 'expected a whole number between 0 and 65535')

const byteSize = z
  .string()
  .regex(/^\d+[kmg]?$/i, 'expected a size such as 10m, 512k or 1g')
  .transform((v) => {
    const unit = v.slice(-1).toLowerCase()
    const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1
    return Number.parseInt(v, 10) * factor
  })

const boolean = z
  .enum(['true', 'false', '1', '0'], { error: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1')

/** The most worker processes one node runs (TROVE_WORKERS). */
export const MAX_WORKERS = 32

/** Environment variables Trove reads, each with its default. Nothing else reads process.env. */
const EnvSchema = z.object({
  TROVE_PORT: port.default(8080),
  TROVE_HOST: z.string().min(1).default('0.0.0.0'),
  TROVE_DATA_DIR: z.string().min(1).default('./data'),
  TROVE_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL, or unset for SQLite')
    .optional(),
  TROVE_BASE_URL: z.url({ error: 'expected an absolute http(s) URL' }).optional(),
  TROVE_DOWNLOAD_BASE_URL: z.url({ error: 'expected an absolute http(s) URL' }).optional(),
  TROVE_ADMIN_PASSWORD: z.string().min(8, 'expected at least 8 characters').optional(),
  TROVE_SERVER_NAME: z.string().min(1).max(100).optional(),
  TROVE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
  TROVE_LOG_STDOUT: boolean.default(true),
  TROVE_LOG_MAX_SIZE: byteSize.default(10 * 1024 * 1024),
  TROVE_LOG_MAX_FILES: z.coerce.number().int().min(1).max(100).default(10),
  TROVE_WEB_DIR: z.string().min(1).optional(),
  TROVE_TRUST_PROXY: boolean.default(false),
  TROVE_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  TROVE_LOG_DIR: z.string().min(1).optional(),
  TROVE_NODE_ID: z
    .string()
    .regex(/^[\w.-]{1,100}$/, 'expected letters, digits, dots, dashes or underscores (at most 100)')
    .optional(),
  TROVE_NODE_URL: z.url({ error: 'expected an absolute http(s) URL' }).optional(),
  TROVE_WORKERS: z
    .string()
    .regex(/^(auto|\d{1,2})$/, `expected auto or a whole number from 1 to ${MAX_WORKERS}`)
    .transform((v) => (v === 'auto' ? Math.min(os.availableParallelism(), MAX_WORKERS) : Number(v)))
    .pipe(z.number().min(1, 'expected at least 1').max(MAX_WORKERS, `expected at most ${MAX_WORKERS}`))
    .default(1),
  /** Set by the primary process for each worker it starts (1, 2, …); not a setting. */
  TROVE_WORKER_INDEX: z.coerce.number().int().min(1).max(MAX_WORKERS).optional(),
  TROVE_MODULES: z
    .string()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.enum(SERVICE_TYPES, { error: `expected a comma-separated list of ${SERVICE_TYPES.join(', ')}` })).min(1))
    .default([...DEFAULT_MODULES]),
  TROVE_HEARTBEAT_MS: z.coerce
    .number({ error: 'expected a whole number of milliseconds' })
    .int('expected a whole number of milliseconds')
    .min(100, 'expected at least 100')
    .max(60_000, 'expected at most 60000')
    .default(5000),
  TROVE_UPLOAD_MAX_SIZE: byteSize.default(2 * 1024 ** 3),
  TROVE_ARCHIVE_MAX_EXPANDED: byteSize.default(1024 ** 3),
  TROVE_BLOB_STORE: z.string().trim().min(1).optional(),
  TROVE_MASTER_KEY: z
    .string()
    .trim()
    .refine((v) => /^[A-Za-z0-9+/]{43}=$/.test(v) && Buffer.from(v, 'base64').length === 32, {
      error: 'expected 32 bytes in base64 (openssl rand -base64 32)',
    })
    .optional(),
  TROVE_MASTER_KEY_FILE: z.string().trim().min(1).optional(),
  TROVE_S3_ENDPOINT: z.url({ error: 'expected an http(s) URL' }).optional(),
  TROVE_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  TROVE_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  TROVE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  TROVE_S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { error: 'expected true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  TROVE_S3_PRESIGN_ABOVE: byteSize.default(0),
  TROVE_BLOB_GC_INTERVAL_S: z.coerce.number().int().min(0).default(3600),
  TROVE_GIT_RETEST_INTERVAL_S: z.coerce.number().int().min(0).default(300),
  TROVE_DISTRIBUTION_POLL_MS: z.coerce.number({ error: 'expected a whole number of milliseconds' }).int().min(100).default(2000),
  TROVE_SCAN_POLL_MS: z.coerce.number({ error: 'expected a whole number of milliseconds' }).int().min(100).default(2000),
  TROVE_ADVISORY_UPLOAD_MAX_MB: z.coerce.number().int().min(1).default(1024),
  TROVE_GIT_BINARY: z.string().min(1).default('/usr/bin/git'),
  TROVE_GIT_REFRESH_INTERVAL_S: z.coerce.number().int().min(0).default(3600),
  TROVE_PACKAGES_CACHE_MS: z.coerce
    .number({ error: 'expected a whole number of milliseconds' })
    .int('expected a whole number of milliseconds')
    .min(0)
    .max(60_000, 'expected at most 60000')
    .default(5000),
  // fault injection for the crash-consistency tests (core/crashPoints.ts); never set in production
  TROVE_CRASH_AT: z
    .string()
    .regex(/^(blob\.synced|blob\.stored|db\.commit|db\.committed|db\.written)(#[1-9][0-9]*)?$/, 'expected <crash point>[#n]')
    .optional(),
  TROVE_CRASH_TRACE: z.string().min(1).optional(),
  // shell: the instance model's defaults (an admin's choice, kept in the database, wins)
  TROVE_FLAVOUR: z.enum(['platform', 'oss', 'jcr', 'ce', 'edge', 'edge_trial', 'tour']).default('platform'),
  TROVE_DEPLOYMENT: z.enum(['cloud', 'onprem', 'lightweight']).default('onprem'),
  TROVE_FEATURES: z
    .string()
    .regex(/^-?[A-Za-z]+(,-?[A-Za-z]+)*$/, 'expected a comma-separated list of feature names, - to turn one off')
    .optional(),
})

export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  /**
   * The key that seals secrets at rest and signs calls between nodes (TROVE_MASTER_KEY or the file
   * TROVE_MASTER_KEY_FILE names); unset, each data dir makes its own (core/secretBox.ts).
   */
  masterKey: Buffer | undefined
  baseUrl: string | undefined
  /**
   * A second origin (another host name of this server) where stored files are shown inline,
   * sandboxed, for those who view HTML reports in the browser; the console's origin sends them as
   * attachments (core/servedContent.ts).
   */
  downloadBaseUrl: string | undefined
  adminPassword: string | undefined
  serverName: string | undefined
  log: { level: string; stdout: boolean; maxSize: number; maxFiles: number; dir: string }
  webDir: string
  trustProxy: boolean
  shutdownTimeoutMs: number
  /** This process in the cluster: its id, the URL its peers reach it at, what it runs. */
  node: { id: string; url: string | undefined; modules: ServiceType[]; heartbeatMs: number }
  /**
   * Worker processes sharing the node's port (core/workers.ts): how many, and which one this is
   * (0 in a node of one process). Each worker is a node of the cluster in its own right.
   */
  workers: { count: number; index: number }
  repositories: {
    /** The largest file a client may upload (bytes). */
    uploadMaxBytes: number
    /** The most an archive may expand to while Trove reads it (bytes); beyond it, a decompression bomb. */
    archiveMaxExpandedBytes: number
    /** How often unreferenced blobs are freed (seconds; 0: only when asked). */
    blobGcIntervalS: number
    /** How long the packages browser may answer from its cache (ms; 0: never); see storage/answerCache.ts. */
    packagesCacheMs: number
    /** Blobs in an S3-compatible bucket instead of the data directory (core/s3Objects.ts). */
    s3: S3Settings | undefined
  }
  distribution: {
    /** How often a distribution node looks for distributions due (retries, other nodes' requests); its own start at once. */
    pollMs: number
  }
  scanner: {
    /** How often a scanner node looks for versions another node stored (ms); its own it scans at once. */
    pollMs: number
    /** The largest OSV upload an administrator may send (bytes). */
    maxUploadBytes: number
  }
  integrations: {
    /** How often each git integration's vendor is asked again to keep its status true (seconds; 0: never). */
    gitRetestIntervalS: number
    /** The git client that clones repositories selected for scanning (an absolute path). */
    gitBinary: string
    /** How often each selected repository is cloned again, so new commits get scanned (seconds; 0: never). */
    gitRefreshIntervalS: number
  }
  /** Fault injection for the crash-consistency tests (core/crashPoints.ts): unset in production. */
  faults: { crashAt: string | undefined; crashTrace: string | undefined }
  /** shell: the instance model's defaults */
  instance: { flavour: string; deployment: string; features: Record<string, boolean> }
}

export class ConfigError extends Error {}

/** Where blobs go when they live in an S3-compatible bucket (`TROVE_BLOB_STORE=s3://bucket/prefix`). */
export interface S3Settings {
  bucket: string
  /** Key prefix, '' or ending in '/'. */
  prefix: string
  endpoint: string | undefined
  region: string
  accessKeyId: string | undefined
  secretAccessKey: string | undefined
  forcePathStyle: boolean
  /** Downloads of blobs at least this large answer with a redirect to a presigned URL (0: never). */
  presignAboveBytes: number
}

/** `s3://bucket/prefix` and the TROVE_S3_* settings → S3Settings; undefined for the local disk. */
function s3Settings(env: Omit<S3Settings, 'bucket' | 'prefix'> & { blobStore: string | undefined }): S3Settings | undefined {
  if (!env.blobStore) return undefined
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(env.blobStore)
  if (!m)
    throw new ConfigError(
      `Invalid configuration:\n  TROVE_BLOB_STORE=${JSON.stringify(env.blobStore)}: expected s3://<bucket>[/<prefix>]`,
    )
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '')
  const { blobStore: _, ...rest } = env
  return { ...rest, bucket: m[1] as string, prefix: prefix ? `${prefix}/` : '' }
}

const SECRET_SETTINGS = new Set(['TROVE_MASTER_KEY', 'TROVE_S3_SECRET_ACCESS_KEY', 'TROVE_ADMIN_PASSWORD'])

/** TROVE_MASTER_KEY, or the file TROVE_MASTER_KEY_FILE names (a secret mounted by the platform). */
function readMasterKey(inline: string | undefined, file: string | undefined): Buffer | undefined {
  if (inline && file)
    throw new ConfigError('Invalid configuration:\n  TROVE_MASTER_KEY_FILE: set it or TROVE_MASTER_KEY, not both')
  if (inline) return Buffer.from(inline, 'base64')
  if (!file) return undefined
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8').trim()
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  TROVE_MASTER_KEY_FILE=${JSON.stringify(file)}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    )
  }
  const key = Buffer.from(text, 'base64')
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text) || key.length !== 32)
    throw new ConfigError(
      `Invalid configuration:\n  TROVE_MASTER_KEY_FILE=${JSON.stringify(file)}: expected 32 bytes in base64 (openssl rand -base64 32)`,
    )
  return key
}

/** Builds the one config object from environment variables; throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = EnvSchema.safeParse(present)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0])
      // A secret's value is never printed: the message goes to logs and terminals.
      const shown = SECRET_SETTINGS.has(name) ? '(hidden)' : JSON.stringify(present[name] ?? '')
      return `  ${issue.path.join('.')}=${shown}: ${issue.message}`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  if (e.TROVE_WORKERS > 1 && e.TROVE_NODE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  TROVE_NODE_URL: one address cannot name several worker processes; leave it unset with TROVE_WORKERS above 1',
    )
  }
  if (
    e.TROVE_DOWNLOAD_BASE_URL &&
    e.TROVE_BASE_URL &&
    new URL(e.TROVE_DOWNLOAD_BASE_URL).host === new URL(e.TROVE_BASE_URL).host
  ) {
    throw new ConfigError(
      "Invalid configuration:\n  TROVE_DOWNLOAD_BASE_URL: must be another host than TROVE_BASE_URL (files shown there must not share the console's cookies)",
    )
  }
  const dataDir = path.resolve(e.TROVE_DATA_DIR)
  const masterKey = readMasterKey(e.TROVE_MASTER_KEY, e.TROVE_MASTER_KEY_FILE)
  // Worker 1 is the node as configured; worker k of a node keeps its own id and log directory.
  const index = e.TROVE_WORKERS > 1 ? (e.TROVE_WORKER_INDEX ?? 0) : 0
  const baseNodeId = e.TROVE_NODE_ID ?? os.hostname()
  const nodeId = index > 1 ? `${baseNodeId}-w${index}` : baseNodeId
  const baseLogDir = path.resolve(e.TROVE_LOG_DIR ?? path.join(dataDir, 'logs'))
  return {
    port: e.TROVE_PORT,
    host: e.TROVE_HOST,
    dataDir,
    databaseUrl: e.TROVE_DATABASE_URL,
    masterKey,
    baseUrl: e.TROVE_BASE_URL?.replace(/\/+$/, ''),
    downloadBaseUrl: e.TROVE_DOWNLOAD_BASE_URL?.replace(/\/+$/, ''),
    adminPassword: e.TROVE_ADMIN_PASSWORD,
    serverName: e.TROVE_SERVER_NAME,
    log: {
      level: e.TROVE_LOG_LEVEL,
      stdout: e.TROVE_LOG_STDOUT,
      maxSize: e.TROVE_LOG_MAX_SIZE,
      maxFiles: e.TROVE_LOG_MAX_FILES,
      dir: index > 1 ? path.join(baseLogDir, nodeId) : baseLogDir,
    },
    webDir: path.resolve(e.TROVE_WEB_DIR ?? defaultWebDir),
    trustProxy: e.TROVE_TRUST_PROXY,
    shutdownTimeoutMs: e.TROVE_SHUTDOWN_TIMEOUT_MS,
    node: {
      id: nodeId,
      url: e.TROVE_NODE_URL?.replace(/\/+$/, ''),
      modules: e.TROVE_MODULES,
      heartbeatMs: e.TROVE_HEARTBEAT_MS,
    },
    workers: { count: e.TROVE_WORKERS, index },
    repositories: {
      uploadMaxBytes: e.TROVE_UPLOAD_MAX_SIZE,
      archiveMaxExpandedBytes: e.TROVE_ARCHIVE_MAX_EXPANDED,
      blobGcIntervalS: e.TROVE_BLOB_GC_INTERVAL_S,
      packagesCacheMs: e.TROVE_PACKAGES_CACHE_MS,
      s3: s3Settings({
        blobStore: e.TROVE_BLOB_STORE,
        endpoint: e.TROVE_S3_ENDPOINT,
        region: e.TROVE_S3_REGION,
        accessKeyId: e.TROVE_S3_ACCESS_KEY_ID,
        secretAccessKey: e.TROVE_S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.TROVE_S3_FORCE_PATH_STYLE,
        presignAboveBytes: e.TROVE_S3_PRESIGN_ABOVE,
      }),
    },
    distribution: { pollMs: e.TROVE_DISTRIBUTION_POLL_MS },
    scanner: { pollMs: e.TROVE_SCAN_POLL_MS, maxUploadBytes: e.TROVE_ADVISORY_UPLOAD_MAX_MB * 1024 * 1024 },
    integrations: {
      gitRetestIntervalS: e.TROVE_GIT_RETEST_INTERVAL_S,
      gitBinary: e.TROVE_GIT_BINARY,
      gitRefreshIntervalS: e.TROVE_GIT_REFRESH_INTERVAL_S,
    },
    faults: { crashAt: e.TROVE_CRASH_AT, crashTrace: e.TROVE_CRASH_TRACE },
    instance: {
      flavour: e.TROVE_FLAVOUR,
      deployment: e.TROVE_DEPLOYMENT,
      features: Object.fromEntries(
        (e.TROVE_FEATURES ?? '')
          .split(',')
          .filter(Boolean)
          .map((f) => (f.startsWith('-') ? [f.slice(1), false] : [f, true])),
      ),
    },
  }
}
