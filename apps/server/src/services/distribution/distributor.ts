import http from 'node:http'
import https from 'node:https'
import { pipeline } from 'node:stream/promises'
import {
  BlobsPresent,
  type BundleManifest,
  DISTRIBUTION_API,
  type HistoryEntry,
  type TargetInput,
  type TargetView,
} from '@trove/contracts/distribution'
import type { Logger } from 'pino'
import type { Principal } from '../../core/access.js'
import { badRequest, conflict, HttpError, notFound } from '../../core/errors.js'
import type { FormatContext } from '../../formats/index.js'
import type { BundleService } from './bundles.js'
import type { History } from './history.js'
import { countFiles, parseManifest } from './manifest.js'
import type { SigningKeys } from './signing.js'

/** A claim on a distribution row older than this belongs to a node that stopped: another takes it over. */
const CLAIM_STALE_MS = 60_000
/** Retries wait 1 s, 2 s, 4 s … up to a minute. */
const BACKOFF_BASE_MS = 1000
const BACKOFF_MAX_MS = 60_000
/** Files sent to a target at the same time. */
const SENDERS = 4
/** Progress is written at most this often while files are sent. */
const PROGRESS_EVERY_MS = 500

export const backoffMs = (attempts: number) => Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1))

/** A target's answer that was not a success, with its own message. */
export class TargetError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** A target's refusal in words: the message of Trove's error shape, else the text itself (or the fallback). */
function messageOf(text: string, fallback: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { message?: string }[] }
    if (body.errors?.[0]?.message) return body.errors[0].message
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500) || fallback
}

/**
 * Ships signed bundles to target nodes, and removes them there. Each (bundle, target) is a row of
 * `distributions` that a node claims before it works on it, so two nodes (or two requests) never
 * send one bundle to one target at once. Sending is resumable: the target says which files it
 * holds already, and only the others go. A failure waits (backoff) and is tried again until it
 * succeeds, so a target that was down receives the bundle when it is back.
 */
export class Distributor {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private again = false
  private stopped = false

  constructor(
    private readonly fctx: FormatContext,
    private readonly bundles: BundleService,
    private readonly keys: SigningKeys,
    private readonly history: History,
    private readonly log: Logger,
    private readonly source: { id: string; url: string },
  ) {}

  private get db() {
    return this.fctx.db.kysely
  }

  start(pollMs: number): void {
    this.timer = setInterval(() => this.kick(), pollMs)
    this.timer.unref()
    this.kick()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    await this.running
  }

  /**
   * Where targets reach this node, told to them with its keys: the configured base URL, else the
   * address the console that asked for a distribution used.
   */
  learnUrl(url: string): void {
    if (!this.source.url) this.source.url = url.replace(/\/+$/, '')
  }

  /** Runs what is due now (again once the current pass ends, if one is running). */
  kick(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.pass()
      .catch((err) => this.log.error({ err }, 'a distribution pass failed'))
      .finally(() => {
        this.running = undefined
        if (this.again) {
          this.again = false
          this.kick()
        }
      })
  }

  /** Waits for the current pass and any it asked for (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  // ---- targets --------------------------------------------------------------------------------

  async listTargets(): Promise<TargetView[]> {
    const rows = await this.db.selectFrom('distribution_targets').selectAll().orderBy('name').execute()
    return rows.map((r) => ({ name: r.name, url: r.url, createdAt: Number(r.created_at), createdBy: r.created_by }))
  }

  /**
   * Registers (or updates) a target: the target is asked at once, with the token, to trust this
   * node's signing keys. A refusal (a wrong token, say) is answered with the target's own message.
   */
  async putTarget(principal: Principal | null, name: string, input: TargetInput): Promise<TargetView> {
    const url = input.url.replace(/\/+$/, '')
    try {
      await this.trust({ url, token: input.token })
    } catch (error) {
      if (error instanceof TargetError) throw badRequest(`The target answered ${error.status}: ${error.message}`)
      throw badRequest(`The target at ${url} could not be reached: ${(error as Error).message}`)
    }
    const now = Date.now()
    const token = this.fctx.secrets.seal(input.token)
    await this.db
      .insertInto('distribution_targets')
      .values({ name, url, token, created_by: principal?.name ?? null, created_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ url, token }))
      .execute()
    return (await this.listTargets()).find((t) => t.name === name) as TargetView
  }

  async deleteTarget(name: string): Promise<void> {
    const res = await this.db.deleteFrom('distribution_targets').where('name', '=', name).executeTakeFirst()
    if (Number(res.numDeletedRows) === 0) throw notFound(`Target ${name} not found`)
    await this.db.deleteFrom('distributions').where('target', '=', name).execute()
  }

  private async target(name: string): Promise<{ url: string; token: string }> {
    const row = await this.db.selectFrom('distribution_targets').selectAll().where('name', '=', name).executeTakeFirst()
    if (!row) throw notFound(`Target ${name} not found`)
    return { url: row.url, token: this.fctx.secrets.open(row.token) }
  }

  // ---- requests -------------------------------------------------------------------------------

  /** Queues a signed bundle for targets; one already on its way there is left as it is. */
  async distribute(principal: Principal | null, name: string, version: string, targets: string[]): Promise<void> {
    if (!principal || !(await this.fctx.authz.canOnReleaseBundle(principal, 'deploy', name)))
      throw new HttpError(principal ? 403 : 401, `You may not distribute release bundle ${name}`)
    const bundle = await this.bundles.find(name, version, 'source')
    if (bundle.state !== 'signed')
      throw conflict(`Release bundle ${name} ${version} is not signed: sign it before distributing it`)
    for (const t of targets) await this.target(t)
    const files = await this.db
      .selectFrom('release_bundle_files')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .where('bundle_id', '=', bundle.id)
      .executeTakeFirstOrThrow()
    for (const t of targets) {
      const fresh = {
        state: 'waiting' as const,
        files_done: 0,
        files_total: Number(files.n),
        bytes_done: 0,
        bytes_total: Number(files.bytes ?? 0),
        attempts: 0,
        last_error: null,
        started_at: null,
        finished_at: null,
        next_attempt_at: Date.now(),
        actor: principal.name,
      }
      await this.db
        .insertInto('distributions')
        .values({ bundle_id: bundle.id, target: t, ...fresh })
        .onConflict((oc) =>
          oc
            .columns(['bundle_id', 'target'])
            .doUpdateSet(fresh)
            // Waiting or on its way: asked again, it goes on as it is.
            .where('distributions.state', 'not in', ['waiting', 'running']),
        )
        .execute()
    }
    this.kick()
  }

  /** Removes a bundle from some targets (all it was distributed to, for a recall). */
  async removeFrom(principal: Principal | null, name: string, version: string, targets: string[] | 'all'): Promise<void> {
    if (!principal || !(await this.fctx.authz.canOnReleaseBundle(principal, 'delete', name)))
      throw new HttpError(principal ? 403 : 401, `You may not remove release bundle ${name} from its targets`)
    const bundle = await this.bundles.find(name, version, 'source')
    const res = await this.db
      .updateTable('distributions')
      .set({ state: 'deleting', attempts: 0, last_error: null, next_attempt_at: Date.now(), actor: principal.name })
      .where('bundle_id', '=', bundle.id)
      .$if(targets !== 'all', (q) => q.where('target', 'in', targets as string[]))
      .where('state', '!=', 'deleted')
      .executeTakeFirst()
    if (Number(res.numUpdatedRows) === 0 && targets !== 'all')
      throw notFound(`${name} ${version} was not distributed to ${targets.join(', ')}`)
    this.kick()
  }

  // ---- the work -------------------------------------------------------------------------------

  private async pass(): Promise<void> {
    for (;;) {
      if (this.stopped) return
      const now = Date.now()
      const due = await this.db
        .selectFrom('distributions')
        .selectAll()
        .where('state', 'in', ['waiting', 'running', 'failed', 'deleting'])
        .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
        .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_at', '<', now - CLAIM_STALE_MS)]))
        .orderBy('id')
        .limit(1)
        .executeTakeFirst()
      if (!due) return
      const claimed = await this.db
        .updateTable('distributions')
        .set({ claimed_by: this.source.id, claimed_at: now })
        .where('id', '=', due.id)
        .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_at', '<', now - CLAIM_STALE_MS)]))
        .executeTakeFirst()
      if (Number(claimed.numUpdatedRows) === 0) continue
      await this.work(due.id)
    }
  }

  private async work(id: number): Promise<void> {
    const row = await this.db.selectFrom('distributions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const bundle = await this.db.selectFrom('release_bundles').selectAll().where('id', '=', row.bundle_id).executeTakeFirst()
    const release = (set: Record<string, unknown>) =>
      this.db
        .updateTable('distributions')
        .set({ ...set, claimed_by: null, claimed_at: null })
        .where('id', '=', id)
        .execute()
    if (!bundle?.manifest) {
      await this.db.deleteFrom('distributions').where('id', '=', id).execute()
      return
    }
    const deleting = row.state === 'deleting'
    const action = deleting ? 'delete' : 'distribute'
    try {
      const target = await this.target(row.target)
      if (deleting) {
        const path = `${DISTRIBUTION_API}/incoming/bundles/${encodeURIComponent(bundle.name)}/${encodeURIComponent(bundle.version)}`
        // Not there (never arrived, or removed already): the removal is done all the same.
        await this.call(target, 'DELETE', path).catch((error) => {
          if (!(error instanceof TargetError && error.status === 404)) throw error
        })
        await release({ state: 'deleted', finished_at: Date.now(), last_error: null, next_attempt_at: null })
        await this.history.add({
          bundle: bundle.name,
          version: bundle.version,
          action,
          peer: row.target,
          actor: row.actor,
          result: 'success',
          detail: `removed from ${row.target}`,
        })
        return
      }
      await this.db
        .updateTable('distributions')
        .set({ state: 'running', started_at: row.started_at ?? Date.now() })
        .where('id', '=', id)
        .execute()
      await this.send(id, target, bundle.manifest, bundle.signature as string, bundle.key_id as string)
      await release({ state: 'completed', finished_at: Date.now(), last_error: null, next_attempt_at: null })
      await this.history.add({
        bundle: bundle.name,
        version: bundle.version,
        action,
        peer: row.target,
        actor: row.actor,
        result: 'success',
        detail: `${countFiles(row.files_total)} to ${row.target}`,
      })
    } catch (error) {
      const message =
        error instanceof TargetError ? `The target answered ${error.status}: ${error.message}` : (error as Error).message
      const attempts = row.attempts + 1
      await release({
        state: deleting ? 'deleting' : 'failed',
        attempts,
        last_error: message.slice(0, 2000),
        next_attempt_at: Date.now() + backoffMs(attempts),
      })
      this.log.warn(
        { bundle: bundle.name, version: bundle.version, target: row.target, attempts, err: message },
        `${action} failed; trying again later`,
      )
      if (attempts === 1 || attempts % 10 === 0)
        await this.history.add({
          bundle: bundle.name,
          version: bundle.version,
          action,
          peer: row.target,
          actor: row.actor,
          result: 'failure',
          detail: message.slice(0, 2000),
        })
    }
  }

  /** Trust first (the keys may have rotated), then the files the target lacks, then the bundle. */
  private async send(id: number, target: { url: string; token: string }, manifestText: string, signature: string, keyId: string) {
    await this.trust(target)
    const manifest: BundleManifest = parseManifest(manifestText)
    const blobs = new Map<string, number>()
    for (const f of manifest.files) blobs.set(f.sha256, f.size)
    const present = new Set<string>()
    const all = [...blobs.keys()]
    for (let i = 0; i < all.length; i += 5000) {
      const res = BlobsPresent.parse(
        await this.call(target, 'POST', `${DISTRIBUTION_API}/incoming/blobs/query`, { sha256: all.slice(i, i + 5000) }),
      )
      for (const s of res.present) present.add(s)
    }
    let filesDone = 0
    let bytesDone = 0
    const countFiles = (sha: string) => manifest.files.filter((f) => f.sha256 === sha).length
    for (const sha of present) {
      if (!blobs.has(sha)) continue
      filesDone += countFiles(sha)
      bytesDone += (blobs.get(sha) as number) * countFiles(sha)
    }
    let written = 0
    const progress = async (force = false) => {
      if (!force && Date.now() - written < PROGRESS_EVERY_MS) return
      written = Date.now()
      await this.db
        .updateTable('distributions')
        .set({ files_done: filesDone, bytes_done: bytesDone, claimed_at: Date.now() })
        .where('id', '=', id)
        .execute()
    }
    await progress(true)
    // A few files at a time: each ends with an fsync on the target, which one stream would wait on.
    const queue = [...blobs].filter(([sha]) => !present.has(sha))
    const sender = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (this.stopped) throw new Error('the node is stopping')
        const [sha, size] = next
        await this.putBlob(target, sha, size)
        filesDone += countFiles(sha)
        bytesDone += size * countFiles(sha)
        await progress()
      }
    }
    const senders = Array.from({ length: SENDERS }, sender)
    // The first failure ends the attempt once the others have stopped taking files.
    const results = await Promise.allSettled(
      senders.map((p) =>
        p.catch((error) => {
          queue.length = 0
          throw error
        }),
      ),
    )
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
    await progress(true)
    await this.call(target, 'POST', `${DISTRIBUTION_API}/incoming/bundles`, { manifest: manifestText, signature, keyId })
  }

  private async trust(target: { url: string; token: string }): Promise<void> {
    const keys = await this.keys.list()
    if (keys.length === 0) await this.keys.active()
    await this.call(target, 'PUT', `${DISTRIBUTION_API}/sources/${encodeURIComponent(this.source.id)}`, {
      source: this.source.id,
      url: this.source.url,
      keys: await this.keys.list(),
    })
  }

  private async call(target: { url: string; token: string }, method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${target.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${target.token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    })
    if (!res.ok) throw new TargetError(res.status, messageOf(await res.text().catch(() => ''), res.statusText))
    const text = await res.text()
    return text ? JSON.parse(text) : null
  }

  /** Streams one blob to the target, which checks its sha256 and size before keeping it. */
  private putBlob(target: { url: string; token: string }, sha256: string, size: number): Promise<void> {
    const url = new URL(`${target.url}${DISTRIBUTION_API}/incoming/blobs/${sha256}`)
    const client = url.protocol === 'https:' ? https : http
    return new Promise<void>((resolve, reject) => {
      const req = client.request(
        url,
        {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${target.token}`,
            'content-type': 'application/octet-stream',
            'content-length': size,
            accept: 'application/json',
          },
          timeout: 120_000,
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            if ((res.statusCode ?? 500) < 300) return resolve()
            const text = Buffer.concat(chunks).toString('utf8')
            reject(new TargetError(res.statusCode ?? 500, messageOf(text, res.statusMessage ?? '')))
          })
          res.on('error', reject)
        },
      )
      req.on('timeout', () => req.destroy(new Error('the target did not answer in time')))
      req.on('error', reject)
      pipeline(this.fctx.blobs.open(sha256), req).catch(reject)
    })
  }
}

export type { HistoryEntry }
