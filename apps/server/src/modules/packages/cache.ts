/**
 * A short-lived cache of metadata answers. Any change to packages, versions or files on this node
 * moves the generation (every cached answer is then stale); answers also expire after a few
 * seconds, which bounds how long another node's change can go unseen. Identical queries running
 * at the same time share one database round (the promise is cached).
 */
let generation = 0

/** Called by whatever changes packages, versions or files. */
export function packagesChanged(): void {
  generation++
}

export class AnswerCache {
  private readonly entries = new Map<string, { generation: number; at: number; value: Promise<unknown> }>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get<T>(key: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
    if (this.ttlMs <= 0) return compute()
    const hit = this.entries.get(key)
    if (hit && hit.generation === generation && now - hit.at < this.ttlMs) return hit.value as Promise<T>
    const value = compute()
    this.entries.delete(key)
    this.entries.set(key, { generation, at: now, value })
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
