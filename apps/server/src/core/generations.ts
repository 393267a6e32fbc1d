/**
 * Change counters for a cache whose entries depend on some repositories' records: one moved by
 * changes of everything, one per repository. An entry keeps the stamp it was made against and is
 * still good while the stamp is the same.
 */
export class Generations {
  private all = 0
  private readonly byRepository = new Map<string, number>()

  /** The records of these repositories changed, or of any when none are named. */
  changed(repoKeys?: Iterable<string>): void {
    if (!repoKeys) {
      this.all++
      return
    }
    for (const key of repoKeys) this.byRepository.set(key, (this.byRepository.get(key) ?? 0) + 1)
  }

  stamp(repoKeys: readonly string[]): number[] {
    return [this.all, ...repoKeys.map((key) => this.byRepository.get(key) ?? 0)]
  }

  /** Whether nothing these repositories' records depend on changed since `stamp`. */
  same(stamp: readonly number[], repoKeys: readonly string[]): boolean {
    return this.stamp(repoKeys).every((g, i) => g === stamp[i])
  }
}
