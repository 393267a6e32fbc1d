import { type ChangedTables, repositoriesChanged } from '../core/dbWrites.js'
import { Generations } from '../core/generations.js'

/**
 * A short-lived cache of metadata answers. Any change to packages, versions or files on this node
 * moves the generation (every cached answer is then stale), as does one another node or worker
 * process tells of; answers also expire after a few seconds, which bounds how long a change told of
 * by no notification can go unseen. An answer that depends only on some repositories' records
 * says which: it stays fresh through changes to others. Identical queries running at the same time
 * share one database round (the promise is cached).
 */
let generation = 0
/** The same changes, by repository where they name theirs. */
const byRepository = new Generations()

/** Called by whatever changes packages, versions or files: of the repositories named, or of any. */
export function packagesChanged(repoKeys?: Iterable<string>): void {
  generation++
  byRepository.changed(repoKeys)
}

/** Another process committed writes to `tables`: the packages they concern changed (see packagesChanged). */
export function packagesChangedBy(changed: ChangedTables, tables: readonly string[]): void {
  const scope = repositoriesChanged(changed, tables)
  if (scope === 'all') packagesChanged()
  else if (scope) packagesChanged(scope)
}

export class AnswerCache {
  /** `stamp`: the generation the answer was made at, or with `repos`, their stamp (Generations). */
  private readonly entries = new Map<
    string,
    { stamp: number[]; repos?: readonly string[]; at: number; value: Promise<unknown> }
  >()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  /**
   * The answer kept under `key`, or `compute`'s. With `repos`, the answer depends only on those
   * repositories' records: changes to other repositories leave it.
   */
  get<T>(key: string, compute: () => Promise<T>, now = Date.now(), repos?: readonly string[]): Promise<T> {
    if (this.ttlMs <= 0) return compute()
    const hit = this.entries.get(key)
    if (hit && now - hit.at < this.ttlMs && fresh(hit)) return hit.value as Promise<T>
    const value = compute()
    this.entries.delete(key)
    this.entries.set(key, { stamp: repos ? byRepository.stamp(repos) : [generation], repos, at: now, value })
    // A failure is not kept.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key)
    })
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    return value
  }

  forget(key: string): void {
    this.entries.delete(key)
  }
}

function fresh(entry: { stamp: number[]; repos?: readonly string[] }): boolean {
  return entry.repos ? byRepository.same(entry.stamp, entry.repos) : entry.stamp[0] === generation
}
