import { AnswerCache } from '../../storage/answerCache.js'
import type { Repository } from '../../storage/service.js'
import type { FormatContext } from './types.js'

/**
 * The index answers a format's clients ask most (Go's `@v/list`, Cargo's index files, PyPI's
 * simple pages), kept 2 s per node and dropped at once when any node records or deletes a version
 * or a file in the repository, or in a member of it (packages/cache.ts). Only for repositories
 * that answer from this instance's own records: where a remote answers, directly or as a virtual
 * repository's member, the answer follows that remote's metadata retrieval period, which may be
 * shorter.
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
    const from = await this.ownRecords(repo)
    return from ? this.cache.get(`${repo.key}\0${key}`, compute, Date.now(), [...from]) : compute()
  }

  /** The repositories whose records make the repository's answers, or undefined where a remote answers. */
  private async ownRecords(repo: Repository, seen = new Set<string>()): Promise<Set<string> | undefined> {
    if (repo.rclass === 'remote') return undefined
    if (seen.has(repo.key)) return seen
    seen.add(repo.key)
    for (const key of repo.members) {
      const member = await this.repos.get(key)
      if (member && !(await this.ownRecords(member, seen))) return undefined
    }
    return seen
  }
}
