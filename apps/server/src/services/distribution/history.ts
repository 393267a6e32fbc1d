import type { HistoryEntry, HistoryPage } from '@trove/contracts/distribution'
import type { Kysely, Selectable } from 'kysely'
import type { Principal } from '../../core/access.js'
import type { Authorizer } from '../../core/permissions.js'
import type { Database, DistributionHistoryTable } from '../../core/schema.js'
import type { Tx } from '../../storage/repo.js'

const entryOf = (r: Selectable<DistributionHistoryTable>): HistoryEntry => ({
  id: r.id,
  bundle: r.bundle,
  version: r.version,
  action: r.action,
  peer: r.peer,
  actor: r.actor,
  at: Number(r.at),
  result: r.result,
  detail: r.detail,
})

/** Target history: every distribution, reception and deletion on this node, who, when and how it ended. */
export class History {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly authz: Authorizer,
  ) {}

  async add(e: Omit<HistoryEntry, 'id' | 'at'> & { at?: number }, db: Tx = this.db): Promise<void> {
    await db
      .insertInto('distribution_history')
      .values({
        bundle: e.bundle,
        version: e.version,
        action: e.action,
        peer: e.peer,
        actor: e.actor,
        at: e.at ?? Date.now(),
        result: e.result,
        detail: e.detail.slice(0, 2000),
      })
      .execute()
  }

  /** Newest first; only entries of bundles the caller may read. */
  async page(principal: Principal | null, limit: number, offset: number): Promise<HistoryPage> {
    const newestFirst = this.db.selectFrom('distribution_history').selectAll().orderBy('at', 'desc').orderBy('id', 'desc')
    // An administrator reads every entry: paged by the database.
    if (principal?.admin) {
      const [rows, count] = await Promise.all([
        newestFirst.limit(limit).offset(offset).execute(),
        this.db
          .selectFrom('distribution_history')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ])
      return { entries: rows.map(entryOf), total: Number(count.n) }
    }
    const rows = await newestFirst.execute()
    const readable: HistoryEntry[] = []
    const may = new Map<string, boolean>()
    for (const r of rows) {
      let ok = may.get(r.bundle)
      if (ok === undefined) {
        ok = principal ? await this.authz.canOnReleaseBundle(principal, 'read', r.bundle) : false
        may.set(r.bundle, ok)
      }
      if (ok) readable.push(entryOf(r))
    }
    return { entries: readable.slice(offset, offset + limit), total: readable.length }
  }
}
