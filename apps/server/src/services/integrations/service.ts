import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type {
  ConnectionTestResult,
  GitIntegration,
  GitIntegrationForm,
  GitRepoFindingsPage,
  GitRepoScan,
  GitVendorName,
  IntegrationGroup,
  SelectedRepository,
  VcsIntegration,
} from '@trove/contracts/gitIntegrations'
import { GIT_FINDINGS_PAGE_ROWS, GIT_VENDORS } from '@trove/contracts/gitIntegrations'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from '../../core/config.js'
import { conflict, HttpError, notFound } from '../../core/errors.js'
import { clonePath, cloneRepository } from '../../core/gitClone.js'
import type { Database } from '../../core/schema.js'
import type { SecretBox } from '../../core/secretBox.js'
import { findingsPage, gitRepoCounts, noCounts } from '../scanner/index.js'
import { checkConnection, findRepository, listRepositories, testConnection, vendorUrl } from './connection.js'
import * as repo from './repo.js'
import { VENDOR_APIS, type VendorCredentials } from './vendors.js'

/** A clone pending this long was left by a node that stopped: another node takes it over. */
const STALE_PENDING_MS = 10 * 60_000

/** The form after the contract's schema: vendor resolved to its name, type to git. */
export type ParsedForm = Omit<GitIntegrationForm, 'vendorName' | 'integrationType' | 'token' | 'url'> & {
  vendorName: GitVendorName
  token: string
  url: string
}

const duplicateName = (name: string) => conflict(`integrationName: an integration named ${name} already exists`)
const tokenRequired = () => new HttpError(400, 'token: Token is required')

/**
 * Git integrations (packages-and-operations §3, §4, §7): the vendors an administrator connected,
 * their connection status, and the repositories chosen for the security scanner.
 */
export class GitIntegrationService {
  /** Clones run one at a time per node, in the order they were asked for. */
  private cloneQueue: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  private view(row: repo.IntegrationRow, selected: number): GitIntegration {
    return {
      key: row.key,
      vendorName: row.vendor,
      name: row.name,
      type: 'git',
      url: row.url,
      username: row.user_name,
      products: selected > 0 ? ['xray'] : [],
      status: row.status as GitIntegration['status'],
      statusMessage: row.status_message,
      checkedAt: Number(row.checked_at),
    }
  }

  private credentials(row: repo.IntegrationRow): VendorCredentials {
    return { url: row.url, userName: row.user_name, token: this.secrets.open(row.token_sealed) }
  }

  private async row(key: string): Promise<repo.IntegrationRow> {
    const row = await repo.integrationByKey(this.db, key)
    if (!row) throw notFound(`No git integration with key ${key}`)
    return row
  }

  async list(): Promise<GitIntegration[]> {
    const [rows, counts] = await Promise.all([repo.listIntegrationRows(this.db), repo.selectedCounts(this.db)])
    const selected = new Map(counts.map((c) => [c.integration_id, Number(c.count)]))
    return rows.map((r) => this.view(r, selected.get(r.id) ?? 0))
  }

  /** §3 "Integration group": git, available when the scanner runs here, with one item per vendor. */
  async groups(): Promise<IntegrationGroup[]> {
    const all = await this.list()
    const items = GIT_VENDORS.map((v) => {
      const integrations = all.filter((i) => i.vendorName === v.name)
      return {
        id: v.id,
        name: v.name,
        displayName: v.displayName,
        configured: integrations.length > 0,
        connected: integrations.some((i) => i.status === 'CONNECTED'),
        integrations,
      }
    })
    return [{ type: 'git', available: this.config.node.modules.includes('scanner'), items }]
  }

  /**
   * The credentials a form stands for. An empty token means "the saved one", allowed only for a
   * saved integration whose URL and user name stay as they were: a saved token is never sent anywhere new.
   */
  private async formCredentials(form: ParsedForm, saved?: repo.IntegrationRow): Promise<VendorCredentials> {
    const url = vendorUrl(form.vendorName, form.url)
    if (form.token) return { url, userName: form.userName, token: form.token }
    if (!saved || saved.url !== url || saved.user_name !== form.userName || saved.vendor !== form.vendorName)
      throw tokenRequired()
    return this.credentials(saved)
  }

  async test(form: ParsedForm): Promise<ConnectionTestResult> {
    const saved = form.integrationKey ? await repo.integrationByKey(this.db, form.integrationKey) : undefined
    const credentials = await this.formCredentials(form, saved)
    return { connected: true, vendorUser: await testConnection(form.vendorName, credentials) }
  }

  /** Creates an integration whose token the vendor accepts; a refused token stores nothing. */
  async create(form: ParsedForm, createdBy: string | null): Promise<string> {
    if (!form.token) throw tokenRequired()
    if (await repo.integrationByName(this.db, form.integrationName)) throw duplicateName(form.integrationName)
    const credentials = await this.formCredentials(form)
    await testConnection(form.vendorName, credentials)
    const key = `${form.vendorName.toLowerCase()}-${crypto.randomBytes(6).toString('hex')}`
    const now = Date.now()
    try {
      await repo.insertIntegration(this.db, {
        key,
        vendor: form.vendorName,
        name: form.integrationName,
        url: credentials.url,
        user_name: credentials.userName,
        token_sealed: this.secrets.seal(credentials.token),
        status: 'CONNECTED',
        status_message: null,
        checked_at: now,
        created_at: now,
        created_by: createdBy,
      })
    } catch (error) {
      // Two administrators choosing one name at once: the unique index decides.
      if (await repo.integrationByName(this.db, form.integrationName)) throw duplicateName(form.integrationName)
      throw error
    }
    return key
  }

  /** Updates an integration; changed credentials are tested first, and a refused token changes nothing. */
  async update(key: string, form: ParsedForm): Promise<string> {
    const saved = await this.row(key)
    if (form.vendorName !== saved.vendor) throw new HttpError(400, 'vendorName: an integration keeps its vendor')
    const named = await repo.integrationByName(this.db, form.integrationName)
    if (named && named.key !== key) throw duplicateName(form.integrationName)
    const credentials = await this.formCredentials(form, saved)
    const changed = credentials.url !== saved.url || credentials.userName !== saved.user_name || Boolean(form.token)
    const tested = changed ? await testConnection(form.vendorName, credentials) : null
    await repo.updateIntegration(this.db, key, {
      name: form.integrationName,
      url: credentials.url,
      user_name: credentials.userName,
      ...(tested
        ? {
            token_sealed: this.secrets.seal(credentials.token),
            status: 'CONNECTED',
            status_message: null,
            checked_at: Date.now(),
          }
        : {}),
    })
    return key
  }

  async remove(key: string): Promise<string> {
    const row = await this.row(key)
    await repo.deleteIntegration(this.db, row.id)
    await fs.rm(path.join(this.config.dataDir, 'git', row.key), { recursive: true, force: true })
    return key
  }

  /**
   * Asks again every vendor not asked within the interval, so statuses stay true. Each row is
   * claimed first (repo.claimCheck), so of several nodes one asks.
   */
  async retestDue(now = Date.now()): Promise<number> {
    const before = now - this.config.integrations.gitRetestIntervalS * 1000
    let asked = 0
    for (const row of await repo.integrationsCheckedBefore(this.db, before)) {
      if (!(await repo.claimCheck(this.db, row.id, Number(row.checked_at), now))) continue
      asked++
      const check = await checkConnection(row.vendor as GitVendorName, this.credentials(row)).catch((error: Error) => ({
        status: 'CONFIGURED' as const,
        vendorUser: null,
        message: error.message,
      }))
      await repo.updateIntegration(this.db, row.key, { status: check.status, status_message: check.message })
    }
    return asked
  }

  /** GET /xray/ui/vcs_integrations: the integrations the scanner can use, by integration_id. */
  async vcsIntegrations(): Promise<VcsIntegration[]> {
    const [rows, counts] = await Promise.all([repo.listIntegrationRows(this.db), repo.selectedCounts(this.db)])
    const selected = new Map(counts.map((c) => [c.integration_id, Number(c.count)]))
    return rows.map((r) => ({
      integration_id: r.key,
      name: r.name,
      vendor: r.vendor,
      status: r.status as VcsIntegration['status'],
      selected: selected.get(r.id) ?? 0,
    }))
  }

  async repositories(key: string, page: number) {
    const row = await this.row(key)
    return listRepositories(row.vendor as GitVendorName, this.credentials(row), page)
  }

  /** The scanner's state of a selected repository: a failed clone is never scanned, so it says so. */
  private scanView(r: repo.ScanRepositoryRow, counts: Map<number, GitRepoScan['counts']>): GitRepoScan {
    const state = (r.scan_state ?? (r.status === 'failed' ? 'not_scanned' : 'waiting')) as GitRepoScan['state']
    return {
      state,
      reason: r.scan_reason ?? (r.scan_state === null && r.status === 'failed' ? 'The repository could not be cloned' : null),
      commit: r.scanned_commit,
      scannedAt: r.scanned_at === null ? null : Number(r.scanned_at),
      counts: state === 'scanned' ? (counts.get(r.id) ?? noCounts()) : null,
    }
  }

  private async selectedViews(rows: repo.ScanRepositoryRow[]): Promise<SelectedRepository[]> {
    const counts = await gitRepoCounts(
      this.db,
      rows.filter((r) => r.scan_state === 'scanned').map((r) => r.id),
    )
    return rows.map((r) => ({
      fullName: r.full_name,
      cloneUrl: r.clone_url,
      status: r.status as SelectedRepository['status'],
      headCommit: r.head_commit,
      error: r.error,
      clonedAt: r.cloned_at === null ? null : Number(r.cloned_at),
      scan: this.scanView(r, counts),
    }))
  }

  async selected(key: string): Promise<SelectedRepository[]> {
    const row = await this.row(key)
    return this.selectedViews(await repo.scanRepositories(this.db, row.id))
  }

  /** One page of a selected repository's findings, worst first. */
  async findings(key: string, fullName: string, page: number): Promise<GitRepoFindingsPage> {
    const row = await this.row(key)
    const target = await repo.scanRepositoryByName(this.db, row.id, fullName)
    if (!target) throw notFound(`${fullName} is not selected for scanning in ${key}`)
    return findingsPage(
      this.db,
      { gitRepoId: target.id },
      { number: page, rows: GIT_FINDINGS_PAGE_ROWS, orderBy: 'severity', direction: 'desc' },
    )
  }

  /**
   * Stores the selection for the security scanner and clones each newly chosen repository. Each
   * is looked up at the vendor first, so the clone URL is the vendor's, never the caller's.
   */
  async select(key: string, fullNames: string[]): Promise<SelectedRepository[]> {
    const row = await this.row(key)
    const vendor = row.vendor as GitVendorName
    const credentials = this.credentials(row)
    const chosen = []
    for (const fullName of [...new Set(fullNames)]) chosen.push(await findRepository(vendor, credentials, fullName))
    const before = new Set((await repo.scanRepositories(this.db, row.id)).map((r) => r.full_name))
    const rows = await repo.replaceSelection(this.db, row.id, chosen, Date.now())
    const kept = new Set(rows.map((r) => r.full_name))
    for (const gone of before) {
      if (!kept.has(gone)) await fs.rm(clonePath(this.config.dataDir, row.key, gone), { recursive: true, force: true })
    }
    for (const added of rows.filter((r) => r.status === 'pending')) this.enqueueClone(row, added, credentials)
    return this.selectedViews(rows)
  }

  /**
   * Clones again the selected repositories due (each `gitRefreshIntervalS`), so commits pushed
   * since are scanned (the scanner rescans a clone whose HEAD changed), and takes over clones a
   * stopped node left pending for 10 minutes. Each row is claimed first, so of several nodes one
   * clones it. Answers how many it queued.
   */
  async refreshDue(now = Date.now()): Promise<number> {
    const intervalMs = this.config.integrations.gitRefreshIntervalS * 1000
    if (intervalMs <= 0) return 0
    let queued = 0
    for (const target of await repo.clonesDue(this.db, now - intervalMs, now - STALE_PENDING_MS)) {
      if (!(await repo.claimClone(this.db, target.id, Number(target.last_attempt), now))) continue
      const integration = await repo.integrationById(this.db, target.integration_id)
      if (!integration) continue
      this.enqueueClone(integration, target, this.credentials(integration))
      queued++
    }
    return queued
  }

  private enqueueClone(integration: repo.IntegrationRow, target: repo.ScanRepositoryRow, credentials: VendorCredentials) {
    const header = VENDOR_APIS[integration.vendor as GitVendorName].gitHeader(credentials)
    const where = clonePath(this.config.dataDir, integration.key, target.full_name)
    this.cloneQueue = this.cloneQueue.then(async () => {
      try {
        const head = await cloneRepository(this.config.integrations.gitBinary, target.clone_url, header, where)
        await repo.recordClone(this.db, target.id, { status: 'cloned', headCommit: head, error: null, at: Date.now() })
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000)
        this.log.warn({ repository: target.full_name, err: message }, 'cloning a repository for scanning failed')
        // A clone that fails again leaves the previous one whole (cloneRepository renames over it
        // only on success): it stays cloned at its HEAD, with the error said.
        const kept = target.status === 'cloned' && target.head_commit !== null
        await repo.recordClone(this.db, target.id, {
          status: kept ? 'cloned' : 'failed',
          headCommit: kept ? target.head_commit : null,
          error: message,
          at: Date.now(),
        })
      }
    })
  }

  /** Waits for the clones asked for so far (shutdown, tests). */
  idle(): Promise<void> {
    return this.cloneQueue
  }
}
