import type { CopyMoveResponse, NodeInfo, NodeProperties, Property, TreeNode, TreeResponse } from '@trove/contracts/artifacts'
import { ARTIFACTS_TREE_PATH } from '@trove/contracts/artifacts'
import type { Principal } from '../core/access.js'
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../core/errors.js'
import type { RepoAction } from '../core/permissions.js'
import { like } from '../core/sqlLike.js'
import { packagesChanged } from './answerCache.js'
import { type FileRow, packageId } from './artifacts.js'
import type { FilesChanged, StorageContext } from './context.js'
import type { Tx } from './repo.js'
import type { Repository } from './service.js'
import { type ChildKey, childKeys, filesAt, filesUnder, folderExists, folderPrefix } from './tree.js'

const iso = (ms: number | null | undefined) => (ms == null ? undefined : new Date(Number(ms)).toISOString())

/** A file, or a folder as the files under it: what an action applies to. */
export type Target =
  | { kind: 'file'; repo: Repository; path: string; file: FileRow }
  | { kind: 'folder'; repo: Repository; path: string }

/**
 * The artifact tree (issue: artifacts browser): what the console's tree, its detail tabs and its
 * actions read and change, and the storage, copy/move and search REST calls. Every answer is
 * filtered through `ctx.authz`: an unreadable repository is "not found" to its caller.
 */
export class ArtifactTreeService {
  /** `hooks`: by package type, what its format does when files change through the tree. */
  constructor(
    private readonly fctx: StorageContext,
    private readonly hooks: ReadonlyMap<string, FilesChanged>,
  ) {}

  /** Lets the repository's format derive again what it keeps from stored files (Maven metadata…). */
  private async changed(repo: Repository, paths: string[]): Promise<void> {
    if (paths.length > 0) await this.hooks.get(repo.packageType)?.(repo, paths)
  }

  private get db() {
    return this.fctx.db.kysely
  }

  /** The repository, when the caller may do `action` there (read: else 404; others: 401/403). */
  async repo(principal: Principal | null, key: string, action: RepoAction = 'read'): Promise<Repository> {
    const repo = await this.fctx.repos.get(key)
    const readable = repo ? await this.fctx.authz.canOnRepo(principal, 'read', key) : false
    if (!repo || !readable) {
      if (!repo || principal) throw notFound(`Repository ${key} does not exist`)
      throw unauthorized()
    }
    if (action !== 'read' && !(await this.fctx.authz.canOnRepo(principal, action, key))) {
      if (!principal) throw unauthorized()
      throw forbidden(`${principal.name} may not ${action} in ${key}`)
    }
    return repo
  }

  /** The members of a virtual repository the caller may read, in resolution order (virtual members too). */
  private async readableMembers(principal: Principal | null, repo: Repository, seen = new Set<string>()): Promise<Repository[]> {
    seen.add(repo.key)
    const out: Repository[] = []
    for (const key of repo.members) {
      if (seen.has(key)) continue
      const member = await this.fctx.repos.get(key)
      if (!member || !(await this.fctx.authz.canOnRepo(principal, 'read', key))) continue
      if (member.rclass === 'virtual') out.push(...(await this.readableMembers(principal, member, seen)))
      else out.push(member)
    }
    return out
  }

  /** The repositories whose stored files a repository shows: itself, or a virtual's readable members. */
  private async sources(principal: Principal | null, repo: Repository): Promise<Repository[]> {
    return repo.rclass === 'virtual' ? this.readableMembers(principal, repo) : [repo]
  }

  async children(
    principal: Principal | null,
    q: { repoKey?: string; path: string; after?: string; from?: string; filter?: string; limit: number },
  ): Promise<TreeResponse> {
    if (!q.repoKey) return this.repositories(principal, q)
    const repo = await this.repo(principal, q.repoKey)
    const sources = await this.sources(principal, repo)
    // A page from each source, merged in key order; a name held by two members shows once (the first's).
    const merged = new Map<string, { child: ChildKey; source: string }>()
    for (const source of sources) {
      for (const child of await childKeys(this.fctx.db, source.key, q.path, q)) {
        if (!merged.has(child.key)) merged.set(child.key, { child, source: source.key })
      }
    }
    const page = [...merged.values()].sort((a, b) => cmp(a.child.key, b.child.key)).slice(0, q.limit)
    const prefix = folderPrefix(q.path)
    const fileRows = new Map<string, FileRow>()
    for (const source of sources) {
      const paths = page.filter((e) => !e.child.folder && e.source === source.key).map((e) => prefix + e.child.name)
      if (paths.length > 0)
        for (const [p, row] of await filesAt(this.db, source.key, paths)) fileRows.set(`${source.key}\0${p}`, row)
    }
    const nodes: TreeNode[] = page.map(({ child, source }) => {
      const path = prefix + child.name
      const row = child.folder ? undefined : fileRows.get(`${source}\0${path}`)
      return {
        key: child.key,
        name: child.name,
        path,
        repoKey: repo.key,
        type: child.folder ? 'folder' : 'file',
        ...(row ? { size: Number(row.size), lastModified: iso(row.modified_at) } : {}),
      }
    })
    const last = page[page.length - 1]
    return { nodes, next: page.length === q.limit && last ? last.child.key : null }
  }

  /** The tree's top level: the repositories the caller may read, by key. */
  private async repositories(
    principal: Principal | null,
    q: { after?: string; from?: string; filter?: string; limit: number },
  ): Promise<TreeResponse> {
    const rows = await this.db.selectFrom('repositories').select(['key', 'rclass', 'package_type', 'updated_at']).execute()
    rows.sort((a, b) => cmp(a.key, b.key))
    const filter = q.filter?.toLowerCase()
    const candidates = rows.filter(
      (r) =>
        (!q.after || cmp(r.key, q.after) > 0) &&
        (!q.from || cmp(r.key, q.from) >= 0) &&
        (!filter || r.key.toLowerCase().includes(filter)),
    )
    const readable = new Set(
      await this.fctx.authz.readableRepoKeys(
        principal,
        candidates.map((r) => r.key),
      ),
    )
    const page = candidates.filter((r) => readable.has(r.key)).slice(0, q.limit)
    return {
      nodes: page.map((r) => ({
        key: r.key,
        name: r.key,
        path: '',
        repoKey: r.key,
        type: 'repository' as const,
        rclass: r.rclass,
        packageType: r.package_type as TreeNode['packageType'],
        lastModified: iso(r.updated_at),
      })),
      next: page.length === q.limit ? (page[page.length - 1]?.key ?? null) : null,
    }
  }

  /**
   * What a path names in a repository the caller may read: the file, else the folder. A virtual
   * repository's node is its first readable member's.
   */
  async resolve(principal: Principal | null, repoKey: string, path: string, action: RepoAction = 'read'): Promise<Target> {
    const repo = await this.repo(principal, repoKey, action)
    if (!path) return { kind: 'folder', repo, path }
    for (const source of await this.sources(principal, repo)) {
      const file = await this.fctx.artifacts.findFile(source.key, path)
      if (file) return { kind: 'file', repo: source, path, file }
      if (await folderExists(this.db, source.key, path)) return { kind: 'folder', repo: source, path }
    }
    throw notFound(`${path} not found in ${repoKey}`)
  }

  async info(principal: Principal | null, repoKey: string, path: string, baseUrl: string): Promise<NodeInfo> {
    const asked = await this.repo(principal, repoKey)
    const target = await this.resolve(principal, repoKey, path)
    const actions = await this.fctx.authz.repoActions(principal, target.repo.key)
    const base = {
      repoKey: asked.key,
      path,
      name: path ? (path.split('/').pop() as string) : asked.key,
      rclass: asked.rclass,
      packageType: asked.packageType,
      ...(target.repo.key !== asked.key ? { sourceRepoKey: target.repo.key } : {}),
      actions,
    }
    if (target.kind === 'folder') {
      if (!path) {
        const row = await this.db
          .selectFrom('repositories')
          .select(['created_at', 'updated_at'])
          .where('key', '=', asked.key)
          .executeTakeFirstOrThrow()
        return { ...base, type: 'repository', created: iso(row.created_at), lastModified: iso(row.updated_at) }
      }
      return { ...base, type: 'folder' }
    }
    const file = target.file
    const { sha1, md5 } = await this.fctx.blobs.checksums(file)
    let pkg: { packageId: string | null; versionName: string | null } = { packageId: null, versionName: null }
    if (file.version_id !== null) {
      const v = await this.db
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .select(['p.package_type', 'p.name', 'v.version'])
        .where('v.id', '=', file.version_id)
        .executeTakeFirst()
      if (v) pkg = { packageId: packageId(v.package_type, v.name), versionName: v.version }
    }
    return {
      ...base,
      type: 'file',
      size: Number(file.size),
      created: iso(file.created_at),
      lastModified: iso(file.modified_at),
      deployedBy: file.created_by,
      downloadCount: Number(file.download_count),
      lastDownloaded: iso(file.last_downloaded_at) ?? null,
      mimeType: file.mime_type,
      checksums: { sha256: file.sha256, sha1, md5 },
      ...pkg,
      downloadUri: `${baseUrl}/artifactory/${target.repo.key}/${path}`,
      ...(this.fctx.config.downloadBaseUrl
        ? {
            viewUri: `${this.fctx.config.downloadBaseUrl}/artifactory/${encodeURIComponent(target.repo.key)}/${path.split('/').map(encodeURIComponent).join('/')}`,
          }
        : {}),
    }
  }

  async properties(principal: Principal | null, repoKey: string, path: string): Promise<NodeProperties> {
    const target = await this.resolve(principal, repoKey, path)
    if (target.kind === 'folder') return { properties: [] }
    return { properties: toList(await this.fctx.artifacts.properties(target.file.id)) }
  }

  /**
   * Sets (or with `values` null, deletes) one property on a file, or on every file under a folder
   * (`recursive`; a folder itself holds none), in one transaction. Returns the files changed.
   */
  async changeProperty(
    principal: Principal | null,
    r: { repoKey: string; path: string; name: string; values: string[] | null; recursive: boolean },
  ): Promise<number> {
    const target = await this.resolve(principal, r.repoKey, r.path, 'annotate')
    if (target.repo.key !== r.repoKey) await this.repo(principal, target.repo.key, 'annotate')
    if (target.kind === 'folder' && !r.recursive) {
      throw badRequest('A folder holds no properties of its own: set recursive to change every file under it')
    }
    const changed = await this.db.transaction().execute(async (tx) => {
      const apply = async (ids: number[]) => {
        if (ids.length === 0) return
        await tx.deleteFrom('file_properties').where('file_id', 'in', ids).where('name', '=', r.name).execute()
        if (r.values) {
          const rows = ids.flatMap((id) => [...new Set(r.values)].map((value) => ({ file_id: id, name: r.name, value })))
          for (let i = 0; i < rows.length; i += 300)
            await tx
              .insertInto('file_properties')
              .values(rows.slice(i, i + 300))
              .execute()
        }
      }
      if (target.kind === 'file') {
        await apply([target.file.id])
        return 1
      }
      let count = 0
      for await (const page of filesUnder(tx, target.repo.key, target.path)) {
        await apply(page.map((f) => f.id))
        count += page.length
      }
      return count
    })
    packagesChanged()
    return changed
  }

  /**
   * Deletes a file, or a folder with everything under it, in one transaction. A package version
   * left without files goes too (its package when it was the last). Blobs go with the next GC.
   */
  async delete(principal: Principal | null, repoKey: string, path: string): Promise<{ files: number; parent: string }> {
    const repo = await this.repo(principal, repoKey, 'delete')
    if (repo.rclass === 'virtual')
      throw badRequest(`${repoKey} is a virtual repository: delete from the repository that holds the file`)
    const target = await this.resolve(principal, repoKey, path, 'delete')
    const removed = await this.db.transaction().execute((tx) => this.deleteIn(tx, target))
    if (removed.length === 0) throw notFound(`${path} not found in ${repoKey}`)
    await this.changed(target.repo, removed)
    // Folders last while files are under them: the nearest one left above the deleted node.
    const segments = path.split('/').slice(0, -1)
    while (segments.length > 0 && !(await folderExists(this.db, repoKey, segments.join('/')))) segments.pop()
    return { files: removed.length, parent: segments.join('/') }
  }

  /** Deletes the target's files; returns their paths. */
  private async deleteIn(tx: Tx, target: Target): Promise<string[]> {
    const versions = new Set<number>()
    const removed: string[] = []
    const drop = async (rows: FileRow[]) => {
      for (const f of rows) {
        if (f.version_id !== null) versions.add(f.version_id)
        removed.push(f.path)
      }
      const ids = rows.map((f) => f.id)
      for (let i = 0; i < ids.length; i += 500) {
        await tx
          .deleteFrom('files')
          .where('id', 'in', ids.slice(i, i + 500))
          .execute()
      }
    }
    await this.fctx.artifacts.assertNotHeld(
      tx,
      target.repo.key,
      target.kind === 'file' ? { paths: [target.file.path] } : { prefix: target.path ? `${target.path}/` : '' },
    )
    if (target.kind === 'file') await drop([target.file])
    else {
      // Pages are read before deleting them: each next page starts after the previous one's last path.
      for await (const page of filesUnder(tx, target.repo.key, target.path)) await drop(page)
    }
    await this.fctx.artifacts.dropEmptyVersions(tx, versions)
    packagesChanged()
    return removed
  }

  /**
   * Copies (or moves) a file or a folder into a local repository. The new rows name the same blobs;
   * properties go along. An existing file at a target path is a conflict: the whole operation is
   * refused (409, nothing done) unless the caller may delete in the target, when it is replaced. A
   * dry run answers what would happen and changes nothing.
   */
  async copyOrMove(
    principal: Principal | null,
    op: 'copy' | 'move',
    r: { repoKey: string; path: string; targetRepoKey: string; targetPath?: string; dryRun: boolean },
  ): Promise<CopyMoveResponse> {
    const source = await this.resolve(principal, r.repoKey, r.path, op === 'move' ? 'delete' : 'read')
    if (op === 'move' && source.repo.rclass !== 'local') {
      throw badRequest(`${source.repo.key} is a ${source.repo.rclass} repository: only files of a local repository can be moved`)
    }
    const target = await this.repo(principal, r.targetRepoKey, 'deploy')
    if (target.rclass !== 'local') {
      throw badRequest(`${target.key} is a ${target.rclass} repository: copy and move into a local repository`)
    }
    const targetPath = r.targetPath ?? r.path
    if (!targetPath && source.kind === 'file') throw badRequest('targetPath: a file path is required')
    const sameRepo = source.repo.key === target.key
    if (
      sameRepo &&
      (targetPath === r.path || (source.kind === 'folder' && folderPrefix(targetPath).startsWith(folderPrefix(r.path))))
    ) {
      throw badRequest(`${r.path} cannot be ${op === 'copy' ? 'copied' : 'moved'} onto itself or into itself`)
    }
    const mayOverwrite = await this.fctx.authz.canOnRepo(principal, 'delete', target.key)
    const mapPath = (p: string) =>
      source.kind === 'file' ? targetPath : folderPrefix(targetPath) + p.slice(folderPrefix(r.path).length)

    const written: string[] = []
    let moved: string[] = []
    const run = async (tx: Tx, write: boolean): Promise<CopyMoveResponse> => {
      const conflicts: string[] = []
      let files = 0
      const handle = async (rows: FileRow[]) => {
        const dest = await filesAt(
          tx,
          target.key,
          rows.map((f) => mapPath(f.path)),
        )
        for (const f of rows) {
          const to = mapPath(f.path)
          if (dest.has(to)) conflicts.push(to)
          files++
          if (!write) continue
          const props = await this.fctx.artifacts.properties(f.id, tx)
          const id = await this.fctx.artifacts.putFile(
            tx,
            target.key,
            { path: to, blob: { sha256: f.sha256, size: Number(f.size), sha1: f.sha1, md5: f.md5 }, mimeType: f.mime_type },
            { createdBy: principal?.name ?? null },
          )
          await this.fctx.artifacts.setProperties(tx, id, props)
          written.push(to)
        }
      }
      if (source.kind === 'file') await handle([source.file])
      else for await (const page of filesUnder(tx, source.repo.key, source.path)) await handle(page)
      if (files === 0) throw notFound(`${r.path} not found in ${r.repoKey}`)
      const blocked = conflicts.length > 0 && !mayOverwrite
      const messages = blocked
        ? [`${conflicts.length} target path(s) already hold a file in ${target.key}; replacing them needs the delete permission`]
        : conflicts.length > 0
          ? [`${conflicts.length} file(s) in ${target.key} will be replaced`]
          : []
      return { dryRun: !write, files, conflicts: conflicts.slice(0, 1000), refused: blocked, messages }
    }

    if (r.dryRun) return this.db.transaction().execute((tx) => run(tx, false))
    const result = await this.db.transaction().execute(async (tx) => {
      // Checked before any write: a refused operation changes nothing.
      const plan = await run(tx, false)
      if (plan.refused) throw conflict(plan.messages[0] as string)
      const done = await run(tx, true)
      if (op === 'move') moved = await this.deleteIn(tx, source)
      return { ...done, dryRun: false, conflicts: plan.conflicts }
    })
    packagesChanged()
    await this.changed(target, written)
    await this.changed(source.repo, moved)
    return result
  }

  /** Files the caller may read whose name contains `name` (case-insensitive), in some repositories. */
  async searchByName(principal: Principal | null, name: string, repoKeys: string[] | undefined, limit: number) {
    const keys = await this.searchable(principal, repoKeys)
    if (keys.length === 0) return []
    const pattern = `%${name
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)
      .replace(/\*/g, '%')
      .replace(/\?/g, '_')}%`
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('repo_key', 'in', keys)
      .where((eb) => like(eb.fn('lower', ['name']), pattern))
      .orderBy('repo_key')
      .orderBy('path')
      .limit(limit)
      .execute()
  }

  async searchByChecksum(
    principal: Principal | null,
    sum: { sha256?: string; sha1?: string; md5?: string },
    repoKeys: string[] | undefined,
    limit: number,
  ) {
    const keys = await this.searchable(principal, repoKeys)
    if (keys.length === 0) return []
    let q = this.db.selectFrom('files').selectAll().where('repo_key', 'in', keys)
    if (sum.sha256) q = q.where('sha256', '=', sum.sha256.toLowerCase())
    if (sum.sha1) q = q.where('sha1', '=', sum.sha1.toLowerCase())
    if (sum.md5) q = q.where('md5', '=', sum.md5.toLowerCase())
    return q.orderBy('repo_key').orderBy('path').limit(limit).execute()
  }

  /** Files holding every given property (a property given several values matches any of them). */
  async searchByProperties(
    principal: Principal | null,
    props: Record<string, string[]>,
    repoKeys: string[] | undefined,
    limit: number,
  ) {
    const keys = await this.searchable(principal, repoKeys)
    const names = Object.keys(props)
    if (keys.length === 0 || names.length === 0) return []
    let q = this.db.selectFrom('files').selectAll().where('repo_key', 'in', keys)
    for (const name of names) {
      const values = (props[name] ?? []).filter((v) => v !== '')
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('file_properties as fp')
            .select('fp.file_id')
            .whereRef('fp.file_id', '=', 'files.id')
            .where('fp.name', '=', name)
            .$if(values.length > 0, (s) => s.where('fp.value', 'in', values)),
        ),
      )
    }
    return q.orderBy('repo_key').orderBy('path').limit(limit).execute()
  }

  /** The repositories a search looks in: those asked for (all when none), readable, not virtual. */
  private async searchable(principal: Principal | null, asked: string[] | undefined): Promise<string[]> {
    let rows = await this.db.selectFrom('repositories').select(['key', 'rclass']).where('rclass', '<>', 'virtual').execute()
    if (asked && asked.length > 0) rows = rows.filter((r) => asked.includes(r.key))
    return this.fctx.authz.readableRepoKeys(
      principal,
      rows.map((r) => r.key),
    )
  }
}

/** Where the console shows a file of a repository. */
export const treeLink = (repoKey: string, path: string) => `/ui${ARTIFACTS_TREE_PATH}/${repoKey}/${path}`

function toList(props: Record<string, string[]>): Property[] {
  return Object.entries(props)
    .sort(([a], [b]) => cmp(a, b))
    .map(([name, values]) => ({ name, values }))
}

/** The database index's order: UTF-8 bytes, which is code-point order (not JavaScript's UTF-16 order). */
export function cmp(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}
