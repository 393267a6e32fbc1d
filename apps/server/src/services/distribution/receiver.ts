import type { Readable } from 'node:stream'
import type { IncomingBundle, RetentionPolicy, TrustedSource } from '@trove/contracts/distribution'
import type { PackageType } from '@trove/contracts/repositories'
import type { Logger } from 'pino'
import type { Principal } from '../../core/access.js'
import { badRequest, conflict, HttpError, notFound } from '../../core/errors.js'
import { getSetting, setSetting } from '../../core/settings.js'
import type { FormatContext } from '../../formats/index.js'
import type { Tx } from '../../storage/repo.js'
import { RETENTION_SETTING } from '../operations/index.js'
import type { History } from './history.js'
import { countFiles, parseManifest } from './manifest.js'
import { verifySignature } from './signing.js'

export const RETENTION_POLICY_SETTING = 'bundles.retention'
const DAY_MS = 86_400_000

/**
 * The target side: the keys of the sources this node trusts, files arriving ahead of their bundle,
 * and the bundle itself, which is verified (signature by a trusted key, every file present with
 * its sha256 and size) and then made visible in one transaction: its repositories (made local of
 * the same type where missing), files, package versions and tags. Nothing of a bundle that fails
 * a check becomes visible.
 */
export class Receiver {
  constructor(
    private readonly fctx: FormatContext,
    private readonly history: History,
    private readonly log: Logger,
    private readonly changed: (repoKey: string, paths: string[]) => Promise<void> = async () => {},
  ) {}

  private async derive(files: { repoKey: string; path: string }[]): Promise<void> {
    const byRepo = new Map<string, string[]>()
    for (const f of files) byRepo.set(f.repoKey, [...(byRepo.get(f.repoKey) ?? []), f.path])
    for (const [repoKey, paths] of byRepo) await this.changed(repoKey, paths)
  }

  private get db() {
    return this.fctx.db.kysely
  }

  /** Replaces the keys trusted for a source. */
  async trust(source: string, input: TrustedSource): Promise<void> {
    if (input.source !== source) throw badRequest('source: does not match the source in the path')
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('trusted_keys').where('source', '=', source).execute()
      for (const k of input.keys) {
        await tx
          .insertInto('trusted_keys')
          .values({ id: k.id, source, source_url: input.url, public_key: k.publicKey, created_at: Date.now() })
          .onConflict((oc) => oc.column('id').doUpdateSet({ source, source_url: input.url, public_key: k.publicKey }))
          .execute()
      }
    })
  }

  async present(sha256: string[]): Promise<string[]> {
    const out: string[] = []
    for (let i = 0; i < sha256.length; i += 500) {
      const rows = await this.db
        .selectFrom('blobs')
        .select('sha256')
        .where('sha256', 'in', sha256.slice(i, i + 500))
        .execute()
      // A row alone is not enough: a process killed as it stored the file leaves one without content.
      const held = await Promise.all(rows.map((r) => this.fctx.blobs.held(r.sha256)))
      for (const info of held) if (info) out.push(info.sha256)
    }
    return out
  }

  /** One file ahead of its bundle: kept only if its content has this sha256. */
  async putBlob(sha256: string, body: Readable, size: number | undefined): Promise<void> {
    if (!/^[a-f0-9]{64}$/.test(sha256)) throw badRequest('sha256: expected 64 hex digits')
    // sha1 and md5 are left for later (the background thread, at low priority): the signed manifest
    // carries them for the file rows, and a distribution is not held back by two more hashes.
    await this.fctx.blobs.put(body, { sha256, ...(size === undefined ? {} : { size }) }, { sha256Only: true, length: size })
  }

  async receive(principal: Principal | null, input: IncomingBundle, from: string): Promise<{ created: boolean }> {
    let name = '?'
    let version = '?'
    try {
      const manifest = (() => {
        try {
          return parseManifest(input.manifest)
        } catch (error) {
          throw badRequest(`Refused bundle: ${(error as Error).message}`)
        }
      })()
      name = manifest.name
      version = manifest.version
      const key = await this.db.selectFrom('trusted_keys').selectAll().where('id', '=', input.keyId).executeTakeFirst()
      if (!key)
        throw badRequest(`Refused bundle ${name} ${version}: it is signed by ${input.keyId}, a key this node does not trust`)
      if (!verifySignature(key.public_key, input.manifest, input.signature))
        throw badRequest(`Refused bundle ${name} ${version}: its signature does not verify with ${input.keyId}`)
      // Touched first, so the garbage collector (which frees blobs untouched for an hour that nothing
      // names) spares the files that arrived ahead while this bundle makes them named.
      const shas = [...new Set(manifest.files.map((f) => f.sha256))]
      for (let i = 0; i < shas.length; i += 500) {
        await this.db
          .updateTable('blobs')
          .set({ touched_at: Date.now() })
          .where('sha256', 'in', shas.slice(i, i + 500))
          .execute()
      }
      for (const f of manifest.files) {
        const info = await this.fctx.blobs.held(f.sha256)
        if (!info) throw badRequest(`Refused bundle ${name} ${version}: ${f.repoKey}/${f.path} has not arrived`)
        if (info.size !== f.size)
          throw badRequest(`Refused bundle ${name} ${version}: ${f.repoKey}/${f.path} has ${info.size} bytes, not ${f.size}`)
      }
      const existing = await this.db
        .selectFrom('release_bundles')
        .select(['signature'])
        .where('name', '=', name)
        .where('version', '=', version)
        .where('origin', '=', 'target')
        .executeTakeFirst()
      if (existing) {
        if (existing.signature === input.signature) return { created: false }
        throw conflict(`Release bundle ${name} ${version} is already here with other content`)
      }
      const created = await this.db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('release_bundles')
          .values({
            name,
            version,
            origin: 'target',
            state: 'signed',
            description: manifest.description,
            release_notes: manifest.releaseNotes,
            created_by: manifest.createdBy,
            created_at: Date.now(),
            signed_at: manifest.signedAt,
            key_id: input.keyId,
            signature: input.signature,
            manifest: input.manifest,
            source_url: key.source_url || from,
            verified: 1,
          })
          .onConflict((oc) => oc.columns(['name', 'version', 'origin']).doNothing())
          .returning('id')
          .executeTakeFirst()
        // Received meanwhile by a concurrent request: that one made it visible.
        if (!row) return false
        for (const r of manifest.repositories) await this.ensureRepository(tx, r.key, r.packageType)
        const byVersion = new Map<number, typeof manifest.files>()
        for (const f of manifest.files) {
          if (f.version !== null) byVersion.set(f.version, [...(byVersion.get(f.version) ?? []), f])
          else
            await this.fctx.artifacts.putFile(
              tx,
              f.repoKey,
              {
                path: f.path,
                blob: { sha256: f.sha256, sha1: f.sha1, md5: f.md5, size: f.size },
                mimeType: f.mimeType,
                lead: f.lead,
              },
              { createdBy: manifest.createdBy },
            )
        }
        for (const [index, files] of byVersion) {
          const v = manifest.versions[index] as (typeof manifest.versions)[number]
          await this.fctx.artifacts.recordVersionIn(tx, {
            repoKey: v.repoKey,
            packageType: v.packageType,
            name: v.name,
            version: v.version,
            description: v.description,
            readme: v.readme,
            licenses: v.licenses,
            dependencies: v.dependencies,
            metadata: v.metadata,
            createdBy: manifest.createdBy,
            createdAt: v.createdAt,
            overwrite: true,
            files: files.map((f) => ({
              path: f.path,
              blob: { sha256: f.sha256, sha1: f.sha1, md5: f.md5, size: f.size },
              mimeType: f.mimeType,
              lead: f.lead,
            })),
            ...(v.distTags.includes('latest') ? { latest: true } : {}),
            alongside: async (t, ids) => {
              for (const tag of v.distTags) {
                await t
                  .insertInto('dist_tags')
                  .values({ package_id: ids.packageId, repo_key: v.repoKey, tag, version: v.version })
                  .onConflict((oc) => oc.columns(['package_id', 'repo_key', 'tag']).doUpdateSet({ version: v.version }))
                  .execute()
              }
            },
          })
        }
        for (const f of manifest.files) {
          await tx
            .insertInto('release_bundle_files')
            .values({
              bundle_id: row.id,
              repo_key: f.repoKey,
              path: f.path,
              sha256: f.sha256,
              sha1: f.sha1,
              md5: f.md5,
              size: f.size,
              package_type: f.version === null ? null : (manifest.versions[f.version]?.packageType ?? null),
              package_name: f.version === null ? null : (manifest.versions[f.version]?.name ?? null),
              package_version: f.version === null ? null : (manifest.versions[f.version]?.version ?? null),
            })
            .onConflict((oc) => oc.columns(['bundle_id', 'repo_key', 'path']).doNothing())
            .execute()
        }
        await this.history.add(
          {
            bundle: name,
            version,
            action: 'receive',
            peer: key.source_url || from,
            actor: principal?.name ?? null,
            result: 'success',
            detail: `${countFiles(manifest.files.length)}, signature ${input.keyId} verified`,
          },
          tx,
        )
        return true
      })
      this.fctx.repos.forgetAll()
      if (created) await this.derive(manifest.files)
      if (created) await this.applyRetention(name).catch((err) => this.log.error({ err }, 'bundle retention failed'))
      return { created }
    } catch (error) {
      if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
        this.log.warn({ bundle: name, version, err: error.message }, 'refused a release bundle')
        await this.history.add({
          bundle: name.slice(0, 128),
          version: version.slice(0, 64),
          action: 'receive',
          peer: from,
          actor: principal?.name ?? null,
          result: 'failure',
          detail: error.message,
        })
      }
      throw error
    }
  }

  private async ensureRepository(tx: Tx, key: string, packageType: string): Promise<void> {
    const repo = await tx
      .selectFrom('repositories')
      .select(['key', 'rclass', 'package_type'])
      .where('key', '=', key)
      .executeTakeFirst()
    if (!repo) {
      await this.fctx.repos.createIn(tx, key, { rclass: 'local', packageType: packageType as PackageType })
      return
    }
    if (repo.rclass !== 'local' || repo.package_type !== packageType)
      throw conflict(
        `Repository ${key} here is a ${repo.rclass} ${repo.package_type} repository: the bundle needs a local ${packageType} one`,
      )
  }

  /** Removes a received bundle with its files (and versions left without files). */
  async remove(
    principal: Principal | null,
    name: string,
    version: string,
    action: 'delete' | 'retention',
    peer: string | null,
  ): Promise<void> {
    const gone: { repoKey: string; path: string }[] = []
    const removed = await this.db.transaction().execute(async (tx) => {
      const b = await tx
        .selectFrom('release_bundles')
        .select(['id'])
        .where('name', '=', name)
        .where('version', '=', version)
        .where('origin', '=', 'target')
        .executeTakeFirst()
      if (!b) return false
      const files = await tx
        .selectFrom('release_bundle_files')
        .select(['repo_key', 'path'])
        .where('bundle_id', '=', b.id)
        .execute()
      await tx.deleteFrom('release_bundle_files').where('bundle_id', '=', b.id).execute()
      await tx.deleteFrom('release_bundles').where('id', '=', b.id).execute()
      const versions = new Set<number>()
      for (const f of files) {
        // A file another bundle still names stays.
        const other = await tx
          .selectFrom('release_bundle_files')
          .select('bundle_id')
          .where('repo_key', '=', f.repo_key)
          .where('path', '=', f.path)
          .executeTakeFirst()
        if (other) continue
        const row = await this.fctx.artifacts.findFile(f.repo_key, f.path, tx)
        if (!row) continue
        if (row.version_id !== null) versions.add(row.version_id)
        await tx.deleteFrom('files').where('id', '=', row.id).execute()
        gone.push({ repoKey: f.repo_key, path: f.path })
      }
      await this.fctx.artifacts.dropEmptyVersions(tx, versions)
      await this.history.add(
        {
          bundle: name,
          version,
          action,
          peer,
          actor: principal?.name ?? null,
          result: 'success',
          detail: action === 'retention' ? 'removed by the retention policy' : `${countFiles(files.length)} removed`,
        },
        tx,
      )
      return true
    })
    await this.derive(gone)
    if (!removed && action === 'delete') throw notFound(`Release bundle ${name} ${version} is not on this node`)
  }

  async policy(): Promise<RetentionPolicy> {
    const enable = await getSetting(this.db, RETENTION_SETTING, false)
    const rest = await getSetting(this.db, RETENTION_POLICY_SETTING, { keepLast: 0, maxAgeDays: 0 })
    return { enable, keepLast: rest.keepLast, maxAgeDays: rest.maxAgeDays }
  }

  async setPolicy(p: RetentionPolicy): Promise<RetentionPolicy> {
    await setSetting(this.db, RETENTION_SETTING, p.enable)
    await setSetting(this.db, RETENTION_POLICY_SETTING, { keepLast: p.keepLast, maxAgeDays: p.maxAgeDays })
    return this.policy()
  }

  /**
   * Target bundle retention: of each bundle name (one, or all), keeps the newest `keepLast` versions
   * received and none older than `maxAgeDays`; the others are removed and recorded in the history.
   */
  async applyRetention(only?: string, now = Date.now()): Promise<string[]> {
    const p = await this.policy()
    if (!p.enable || (p.keepLast === 0 && p.maxAgeDays === 0)) return []
    const rows = await this.db
      .selectFrom('release_bundles')
      .select(['name', 'version', 'created_at', 'id'])
      .where('origin', '=', 'target')
      .$if(only !== undefined, (q) => q.where('name', '=', only as string))
      .orderBy('name')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    const removed: string[] = []
    const seen = new Map<string, number>()
    for (const r of rows) {
      const rank = (seen.get(r.name) ?? 0) + 1
      seen.set(r.name, rank)
      const tooMany = p.keepLast > 0 && rank > p.keepLast
      const tooOld = p.maxAgeDays > 0 && Number(r.created_at) < now - p.maxAgeDays * DAY_MS
      if (!tooMany && !tooOld) continue
      await this.remove(null, r.name, r.version, 'retention', null)
      removed.push(`${r.name} ${r.version}`)
    }
    if (removed.length > 0) this.log.info({ removed }, 'bundle retention removed release bundles')
    return removed
  }
}
