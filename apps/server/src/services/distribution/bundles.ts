import type {
  BundleDetails,
  BundleFile,
  BundleManifest,
  BundleSource,
  BundleSummary,
  ChecksumMatch,
  CreateBundle,
  ManifestFile,
  ManifestVersion,
  UpdateBundle,
} from '@trove/contracts/distribution'
import type { Selectable } from 'kysely'
import type { Principal } from '../../core/access.js'
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../core/errors.js'
import type { FilesTable, ReleaseBundlesTable } from '../../core/schema.js'
import { contains, startsWith } from '../../core/sqlLike.js'
import { type FormatContext, formatOf } from '../../formats/index.js'
import type { Tx } from '../../storage/repo.js'
import { canonicalJson } from './manifest.js'
import type { SigningKeys } from './signing.js'

type FileRow = Selectable<FilesTable>
type BundleRow = Selectable<ReleaseBundlesTable>

/** A file a bundle names, with the package version it belongs to. */
interface Picked {
  file: FileRow
  version: { type: string; name: string; version: string } | null
}

/** `*` any characters but `/`, `**` any characters, `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*'
      i++
      if (glob[i + 1] === '/') i++
    } else if (c === '*') out += '[^/]*'
    else if (c === '?') out += '[^/]'
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${out}$`)
}

const summaryOf = (b: BundleRow, files: number, size: number, distributedTo: BundleSummary['distributedTo']): BundleSummary => ({
  name: b.name,
  version: b.version,
  description: b.description,
  state: b.state === 'signed' && distributedTo.some((d) => d.state === 'completed') ? 'distributed' : b.state,
  origin: b.origin,
  createdBy: b.created_by,
  createdAt: Number(b.created_at),
  signedAt: b.signed_at === null ? null : Number(b.signed_at),
  files,
  size,
  sourceUrl: b.source_url,
  verified: b.verified === 1,
  distributedTo,
})

/**
 * Release bundles on the source side: made open from package versions, tree paths, build runs or a
 * query; edited while open; signed (frozen: the manifest and its signature are kept, and the files
 * it names cannot be deleted or overwritten while the bundle exists); deleted.
 */
export class BundleService {
  constructor(
    private readonly fctx: FormatContext,
    private readonly keys: SigningKeys,
  ) {}

  private get db() {
    return this.fctx.db.kysely
  }

  private async may(principal: Principal | null, action: 'read' | 'deploy' | 'delete', name: string): Promise<void> {
    if (!principal) throw new HttpError(401, 'Authentication is required')
    if (!(await this.fctx.authz.canOnReleaseBundle(principal, action, name)))
      throw forbidden(`You may not ${action === 'deploy' ? 'create or change' : action} release bundle ${name}`)
  }

  async find(name: string, version: string, origin: 'source' | 'target', db: Tx = this.db): Promise<BundleRow> {
    const row = await db
      .selectFrom('release_bundles')
      .selectAll()
      .where('name', '=', name)
      .where('version', '=', version)
      .where('origin', '=', origin)
      .executeTakeFirst()
    if (!row) throw notFound(`Release bundle ${name} ${version} not found`)
    return row
  }

  async create(principal: Principal | null, input: CreateBundle): Promise<BundleDetails> {
    await this.may(principal, 'deploy', input.name)
    const picked = await this.resolve(principal, input.sources)
    const id = await this.db.transaction().execute(async (tx) => {
      const existing = await tx
        .selectFrom('release_bundles')
        .select('id')
        .where('name', '=', input.name)
        .where('version', '=', input.version)
        .where('origin', '=', 'source')
        .executeTakeFirst()
      if (existing) throw conflict(`Release bundle ${input.name} ${input.version} already exists`)
      const row = await tx
        .insertInto('release_bundles')
        .values({
          name: input.name,
          version: input.version,
          origin: 'source',
          state: 'open',
          description: input.description,
          release_notes: input.releaseNotes,
          created_by: principal?.name ?? null,
          created_at: Date.now(),
        })
        .onConflict((oc) => oc.columns(['name', 'version', 'origin']).doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!row) throw conflict(`Release bundle ${input.name} ${input.version} already exists`)
      await this.addFiles(tx, row.id, picked)
      return row.id
    })
    return this.detailsOf(await this.byId(id))
  }

  async update(principal: Principal | null, name: string, version: string, input: UpdateBundle): Promise<BundleDetails> {
    await this.may(principal, 'deploy', name)
    const picked = await this.resolve(principal, input.add)
    await this.db.transaction().execute(async (tx) => {
      const b = await this.find(name, version, 'source', tx)
      if (b.state !== 'open') throw conflict(`Release bundle ${name} ${version} is signed: it cannot change`)
      const set: { description?: string; release_notes?: string } = {}
      if (input.description !== undefined) set.description = input.description
      if (input.releaseNotes !== undefined) set.release_notes = input.releaseNotes
      if (Object.keys(set).length > 0) await tx.updateTable('release_bundles').set(set).where('id', '=', b.id).execute()
      await this.addFiles(tx, b.id, picked)
      for (const address of input.remove) {
        const slash = address.indexOf('/')
        if (slash <= 0) throw badRequest(`remove: ${address} is not <repository>/<path>`)
        await tx
          .deleteFrom('release_bundle_files')
          .where('bundle_id', '=', b.id)
          .where('repo_key', '=', address.slice(0, slash))
          .where('path', '=', address.slice(slash + 1))
          .execute()
      }
    })
    return this.details(principal, name, version, 'source')
  }

  /**
   * Freezes the bundle: the manifest is built from the files as they are now (each must still be
   * there with the content it had when added), written in canonical form and signed.
   */
  async sign(principal: Principal | null, name: string, version: string): Promise<BundleDetails> {
    await this.may(principal, 'deploy', name)
    const bundle = await this.find(name, version, 'source')
    if (bundle.state !== 'open') throw conflict(`Release bundle ${name} ${version} is already signed`)
    const manifest = await this.buildManifest(bundle)
    if (manifest.files.length === 0) throw badRequest(`Release bundle ${name} ${version} names no file: add some before signing`)
    const text = canonicalJson(manifest)
    const { keyId, signature } = await this.keys.sign(text)
    const signed = await this.db
      .updateTable('release_bundles')
      .set({ state: 'signed', signed_at: manifest.signedAt, key_id: keyId, signature, manifest: text, verified: 1 })
      .where('id', '=', bundle.id)
      .where('state', '=', 'open')
      .executeTakeFirst()
    if (Number(signed.numUpdatedRows) === 0) throw conflict(`Release bundle ${name} ${version} is already signed`)
    return this.details(principal, name, version, 'source')
  }

  /** Deletes a bundle here (its files are free again); distributed copies stay on their targets. */
  async remove(principal: Principal | null, name: string, version: string, origin: 'source' | 'target'): Promise<BundleRow> {
    await this.may(principal, 'delete', name)
    return this.db.transaction().execute(async (tx) => {
      const b = await this.find(name, version, origin, tx)
      await tx.deleteFrom('release_bundle_files').where('bundle_id', '=', b.id).execute()
      await tx.deleteFrom('distributions').where('bundle_id', '=', b.id).execute()
      await tx.deleteFrom('release_bundles').where('id', '=', b.id).execute()
      return b
    })
  }

  async list(principal: Principal | null, origin: 'source' | 'target', q?: string): Promise<BundleSummary[]> {
    let query = this.db
      .selectFrom('release_bundles as b')
      .leftJoin('release_bundle_files as f', 'f.bundle_id', 'b.id')
      .selectAll('b')
      .select((eb) => [
        eb.fn.count<number>('f.path').as('files'),
        eb.fn.coalesce(eb.fn.sum<number>('f.size'), eb.lit(0)).as('size'),
      ])
      .where('b.origin', '=', origin)
      .groupBy('b.id')
      .orderBy('b.name')
      .orderBy('b.created_at', 'desc')
    const term = q?.trim().toLowerCase()
    if (term) {
      query = query.where((eb) =>
        eb.or([
          contains(eb.fn('lower', ['b.name']), term),
          contains(eb.fn('lower', ['b.version']), term),
          eb.exists(
            eb
              .selectFrom('release_bundle_files as c')
              .select('c.bundle_id')
              .whereRef('c.bundle_id', '=', 'b.id')
              .where((w) => w.or([w('c.sha256', '=', term), w('c.sha1', '=', term), w('c.md5', '=', term)])),
          ),
        ]),
      )
    }
    const rows = await query.execute()
    const sent = new Map<number, BundleSummary['distributedTo']>()
    const ids = rows.map((r) => r.id)
    for (let i = 0; i < ids.length; i += 500) {
      const ds = await this.db
        .selectFrom('distributions')
        .select(['bundle_id', 'target', 'state'])
        .where('bundle_id', 'in', ids.slice(i, i + 500))
        .orderBy('target')
        .execute()
      for (const d of ds) sent.set(d.bundle_id, [...(sent.get(d.bundle_id) ?? []), { target: d.target, state: d.state }])
    }
    const out: BundleSummary[] = []
    for (const r of rows) {
      if (principal && (await this.fctx.authz.canOnReleaseBundle(principal, 'read', r.name)))
        out.push(summaryOf(r, Number(r.files), Number(r.size), sent.get(r.id) ?? []))
    }
    return out
  }

  async details(principal: Principal | null, name: string, version: string, origin: 'source' | 'target'): Promise<BundleDetails> {
    await this.may(principal, 'read', name)
    return this.detailsOf(await this.find(name, version, origin))
  }

  async detailsOf(b: BundleRow): Promise<BundleDetails> {
    const files = await this.db
      .selectFrom('release_bundle_files')
      .selectAll()
      .where('bundle_id', '=', b.id)
      .orderBy('repo_key')
      .orderBy('path')
      .execute()
    const distributions = await this.db
      .selectFrom('distributions')
      .selectAll()
      .where('bundle_id', '=', b.id)
      .orderBy('target')
      .execute()
    const contents: BundleFile[] = files.map((f) => ({
      repoKey: f.repo_key,
      path: f.path,
      sha256: f.sha256,
      sha1: f.sha1,
      md5: f.md5,
      size: Number(f.size),
      packageType: f.package_type,
      packageName: f.package_name,
      packageVersion: f.package_version,
    }))
    return {
      ...summaryOf(
        b,
        files.length,
        files.reduce((s, f) => s + Number(f.size), 0),
        distributions.map((d) => ({ target: d.target, state: d.state })),
      ),
      releaseNotes: b.release_notes,
      keyId: b.key_id,
      signature: b.signature,
      contents,
      distributions: distributions.map((d) => ({
        target: d.target,
        state: d.state,
        filesDone: d.files_done,
        filesTotal: d.files_total,
        bytesDone: Number(d.bytes_done),
        bytesTotal: Number(d.bytes_total),
        attempts: d.attempts,
        lastError: d.last_error,
        startedAt: d.started_at === null ? null : Number(d.started_at),
        finishedAt: d.finished_at === null ? null : Number(d.finished_at),
        nextAttemptAt: d.next_attempt_at === null ? null : Number(d.next_attempt_at),
      })),
    }
  }

  /** The canonical manifest text that was signed, and the signature (404 while the bundle is open). */
  async signedManifest(
    principal: Principal | null,
    name: string,
    version: string,
    origin: 'source' | 'target',
  ): Promise<{ manifest: string; signature: string; keyId: string }> {
    await this.may(principal, 'read', name)
    const b = await this.find(name, version, origin)
    if (!b.manifest || !b.signature || !b.key_id) throw notFound(`Release bundle ${name} ${version} is not signed yet`)
    return { manifest: b.manifest, signature: b.signature, keyId: b.key_id }
  }

  /** Bundles holding a file with this checksum (sha256, sha1 or md5 by its length), readable by the caller. */
  async lookup(principal: Principal | null, checksum: string, limit: number): Promise<ChecksumMatch[]> {
    const sum = checksum.trim().toLowerCase()
    const column = { 64: 'f.sha256', 40: 'f.sha1', 32: 'f.md5' }[sum.length] as 'f.sha256' | 'f.sha1' | 'f.md5' | undefined
    if (!column || !/^[a-f0-9]+$/.test(sum)) throw badRequest('checksum: expected a sha256, sha1 or md5 in hex')
    const rows = await this.db
      .selectFrom('release_bundle_files as f')
      .innerJoin('release_bundles as b', 'b.id', 'f.bundle_id')
      .select(['b.name', 'b.version', 'b.origin', 'b.state', 'b.created_at', 'f.repo_key', 'f.path', 'f.sha256'])
      .where(column, '=', sum)
      .orderBy('b.created_at', 'desc')
      .orderBy('f.repo_key')
      .orderBy('f.path')
      .execute()
    const out: ChecksumMatch[] = []
    for (const r of rows) {
      if (out.length >= limit) break
      if (!principal || !(await this.fctx.authz.canOnReleaseBundle(principal, 'read', r.name))) continue
      out.push({
        name: r.name,
        version: r.version,
        origin: r.origin,
        state: r.state,
        created: Number(r.created_at),
        repoKey: r.repo_key,
        path: r.path,
        sha256: r.sha256,
      })
    }
    return out
  }

  private async byId(id: number): Promise<BundleRow> {
    return this.db.selectFrom('release_bundles').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  }

  private async addFiles(tx: Tx, bundleId: number, picked: Picked[]): Promise<void> {
    for (const { file, version } of picked) {
      await tx
        .insertInto('release_bundle_files')
        .values({
          bundle_id: bundleId,
          repo_key: file.repo_key,
          path: file.path,
          sha256: file.sha256,
          sha1: file.sha1,
          md5: file.md5,
          size: Number(file.size),
          package_type: version?.type ?? null,
          package_name: version?.name ?? null,
          package_version: version?.version ?? null,
        })
        .onConflict((oc) => oc.columns(['bundle_id', 'repo_key', 'path']).doNothing())
        .execute()
    }
  }

  /**
   * The files the sources name. Every file must be readable by the caller: one that is not refuses
   * the whole request (403, nothing made); a source that names nothing is a 404.
   */
  async resolve(principal: Principal | null, sources: BundleSource[]): Promise<Picked[]> {
    const out = new Map<string, Picked>()
    const readable = new Map<string, boolean>()
    const check = async (repoKey: string) => {
      let ok = readable.get(repoKey)
      if (ok === undefined) {
        ok = await this.fctx.authz.canOnRepo(principal, 'read', repoKey)
        readable.set(repoKey, ok)
      }
      if (!ok) throw forbidden(`You may not read ${repoKey}, so its files cannot go into a release bundle`)
    }
    const add = async (files: FileRow[]) => {
      for (const f of files) {
        await check(f.repo_key)
        out.set(`${f.repo_key}\0${f.path}`, { file: f, version: await this.versionOf(f) })
      }
    }
    for (const source of sources) {
      const files = await this.filesOf(principal, source)
      if (files.length === 0) throw notFound(`${describe(source)} names no file`)
      await add(files)
    }
    return [...out.values()]
  }

  private readonly versionNames = new Map<number, { type: string; name: string; version: string }>()
  private async versionOf(f: FileRow): Promise<Picked['version']> {
    if (f.version_id === null) return null
    const cached = this.versionNames.get(f.version_id)
    if (cached) return cached
    const v = await this.db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.package_type', 'p.name', 'v.version'])
      .where('v.id', '=', f.version_id)
      .executeTakeFirst()
    if (!v) return null
    const out = { type: v.package_type, name: v.name, version: v.version }
    if (this.versionNames.size > 10_000) this.versionNames.clear()
    this.versionNames.set(f.version_id, out)
    return out
  }

  private async filesOf(principal: Principal | null, source: BundleSource): Promise<FileRow[]> {
    const db = this.db
    switch (source.type) {
      case 'version': {
        await this.fctxRepo(source.repoKey)
        const v = await this.fctx.artifacts.findVersion(source.repoKey, source.packageType, source.name, source.version)
        if (!v) throw notFound(`${source.packageType} ${source.name} ${source.version} is not in ${source.repoKey}`)
        const files = await db.selectFrom('files').selectAll().where('version_id', '=', v.id).orderBy('path').execute()
        // Files the version needs beside its own (an image tag: its manifests and their layers).
        const more = formatOf(source.packageType)?.versionFiles
        if (more) files.push(...(await more(this.fctx)(source.repoKey, source.name, v.metadata)))
        return files
      }
      case 'path': {
        await this.fctxRepo(source.repoKey)
        const path = source.path.replace(/^\/+|\/+$/g, '')
        const one = path ? await this.fctx.artifacts.findFile(source.repoKey, path) : undefined
        if (one) return [one]
        const prefix = path ? `${path}/` : ''
        return db
          .selectFrom('files')
          .selectAll()
          .where('repo_key', '=', source.repoKey)
          .$if(prefix !== '', (q) => q.where(startsWith('path', prefix)))
          .orderBy('path')
          .limit(100_001)
          .execute()
      }
      case 'build': {
        if (!(await this.fctx.authz.canOnBuild(principal, 'read', source.name)))
          throw forbidden(`You may not read build ${source.name}, so its files cannot go into a release bundle`)
        const build = await db
          .selectFrom('builds')
          .select('id')
          .where('name', '=', source.name)
          .where('number', '=', source.number)
          .orderBy('started_at', 'desc')
          .executeTakeFirst()
        if (!build) throw notFound(`Build ${source.name} #${source.number} not found`)
        const items = await db
          .selectFrom('build_items')
          .select(['sha256', 'sha1'])
          .where('build_id', '=', build.id)
          .where('kind', '=', 'artifact')
          .execute()
        const files: FileRow[] = []
        for (const item of items) {
          // The build names checksums; the file is the first readable one with them, locals first.
          let q = db
            .selectFrom('files')
            .innerJoin('repositories as r', 'r.key', 'files.repo_key')
            .selectAll('files')
            .orderBy('r.rclass')
            .orderBy('files.repo_key')
            .orderBy('files.path')
          if (item.sha256) q = q.where('files.sha256', '=', item.sha256)
          else if (item.sha1) q = q.where('files.sha1', '=', item.sha1)
          else continue
          for (const f of await q.limit(20).execute()) {
            if (await this.fctx.authz.canOnRepo(principal, 'read', f.repo_key)) {
              files.push(f)
              break
            }
          }
        }
        return files
      }
      case 'query': {
        await this.fctxRepo(source.repoKey)
        const pattern = globToRegExp(source.path || '**')
        const names = Object.keys(source.properties)
        let q = db.selectFrom('files').selectAll().where('repo_key', '=', source.repoKey)
        for (const name of names) {
          q = q.where(({ exists, selectFrom }) =>
            exists(
              selectFrom('file_properties as fp')
                .select('fp.file_id')
                .whereRef('fp.file_id', '=', 'files.id')
                .where('fp.name', '=', name)
                .where('fp.value', '=', source.properties[name] as string),
            ),
          )
        }
        return (await q.orderBy('path').execute()).filter((f) => pattern.test(f.path))
      }
    }
  }

  private async fctxRepo(key: string): Promise<void> {
    if (!(await this.fctx.repos.get(key))) throw notFound(`Repository ${key} not found`)
  }

  /** The manifest of a bundle's files as they are now; a file gone or changed since it was added refuses it. */
  private async buildManifest(b: BundleRow): Promise<BundleManifest> {
    const named = await this.db
      .selectFrom('release_bundle_files')
      .selectAll()
      .where('bundle_id', '=', b.id)
      .orderBy('repo_key')
      .orderBy('path')
      .execute()
    const repositories = new Map<string, string>()
    const versions: ManifestVersion[] = []
    const versionIndex = new Map<number, number>()
    const files: ManifestFile[] = []
    for (const n of named) {
      const f = await this.fctx.artifacts.findFile(n.repo_key, n.path)
      if (!f) throw conflict(`${n.repo_key}/${n.path} is no longer there: remove it from the bundle or deploy it again`)
      if (f.sha256 !== n.sha256) throw conflict(`${n.repo_key}/${n.path} changed since it was added: remove it and add it again`)
      if (!repositories.has(f.repo_key)) {
        const repo = await this.fctx.repos.get(f.repo_key)
        repositories.set(f.repo_key, repo?.packageType ?? 'generic')
      }
      let index: number | null = null
      if (f.version_id !== null) {
        index = versionIndex.get(f.version_id) ?? null
        if (index === null) {
          const v = await this.manifestVersion(f.version_id)
          if (v) {
            index = versions.push(v) - 1
            versionIndex.set(f.version_id, index)
          }
        }
      }
      const sums = await this.fctx.blobs.checksums(f)
      files.push({
        repoKey: f.repo_key,
        path: f.path,
        sha256: f.sha256,
        sha1: sums.sha1,
        md5: sums.md5,
        size: Number(f.size),
        mimeType: f.mime_type,
        lead: f.lead === 1,
        version: index,
      })
    }
    return {
      format: 'trove-release-bundle/1',
      name: b.name,
      version: b.version,
      description: b.description,
      releaseNotes: b.release_notes,
      createdBy: b.created_by,
      createdAt: Number(b.created_at),
      signedAt: Date.now(),
      repositories: [...repositories].map(([key, packageType]) => ({ key, packageType })),
      versions,
      files,
    }
  }

  private async manifestVersion(versionId: number): Promise<ManifestVersion | undefined> {
    const v = await this.db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select([
        'v.id',
        'v.package_id',
        'v.repo_key',
        'p.package_type',
        'p.name',
        'v.version',
        'v.description',
        'v.readme',
        'v.licenses',
        'v.metadata',
        'v.created_at',
      ])
      .where('v.id', '=', versionId)
      .executeTakeFirst()
    if (!v) return undefined
    const deps = await this.db
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', v.id)
      .orderBy('name')
      .execute()
    const tags = await this.db
      .selectFrom('dist_tags')
      .select('tag')
      .where('package_id', '=', v.package_id)
      .where('repo_key', '=', v.repo_key)
      .where('version', '=', v.version)
      .orderBy('tag')
      .execute()
    return {
      repoKey: v.repo_key,
      packageType: v.package_type,
      name: v.name,
      version: v.version,
      description: v.description,
      readme: v.readme,
      licenses: JSON.parse(v.licenses) as string[],
      dependencies: deps,
      metadata: JSON.parse(v.metadata),
      distTags: tags.map((t) => t.tag),
      createdAt: Number(v.created_at),
    }
  }
}

function describe(source: BundleSource): string {
  switch (source.type) {
    case 'version':
      return `${source.packageType} ${source.name} ${source.version} in ${source.repoKey}`
    case 'path':
      return `${source.repoKey}/${source.path}`
    case 'build':
      return `build ${source.name} #${source.number}`
    case 'query':
      return `the query on ${source.repoKey} (${source.path})`
  }
}
