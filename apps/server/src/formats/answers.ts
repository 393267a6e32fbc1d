import { AnswerCache } from '../modules/packages/cache.js'
import type { Repository } from '../modules/repositories/service.js'
import type { FormatContext } from './types.js'

/**
 * The index answers a format's clients ask most (Go's `@v/list`, Cargo's index files, PyPI's
 * simple pages), kept 2 s per node and dropped at once when any node records or deletes a version
 * or a file (packages/cache.ts). Only for repositories that answer from this instance's own
 * records: where a remote answers, directly or as a virtual repository's member, the answer
 * follows that remote's metadata retrieval period, which may be shorter.
 */
export class IndexAnswers {
  private readonly cache: AnswerCache

  constructor(
    private readonly repos: FormatContext['repos'],
    ttlMs = 2000,
    maxEntries = 5000,
  ) {
    this.cache = new AnswerCache(ttlMs, maxEntries)
  }

  async get<T>(repo: Repository, key: string, compute: () => Promise<T>): Promise<T> {
    return (await this.ownRecords(repo)) ? this.cache.get(`${repo.key}\0${key}`, compute) : compute()
  }

  private async ownRecords(repo: Repository, seen = new Set<string>()): Promise<boolean> {
    if (repo.rclass === 'remote') return false
    if (repo.rclass === 'local' || seen.has(repo.key)) return true
    seen.add(repo.key)
    for (const key of repo.members) {
      const member = await this.repos.get(key)
      if (member && !(await this.ownRecords(member, seen))) return false
    }
    return true
  }
}
