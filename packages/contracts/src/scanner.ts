/**
 * The security scanner's calls (packages-and-operations §7), under the console's API base. Plain
 * types: the console imports them without pulling zod into its first screens.
 */
export const SCANNER_PATHS = {
  version: '/xray/ui/homepage/getXrayVersion',
  summary: '/xray/ui/component/summary',
  components: '/xray/ui/component/paginatedsearch',
  details: '/xray/ui/component/details/general',
  /** GET, an attachment: ?package_id&version&repo&format=cyclonedx|spdx[&spec_version=1.5|1.6] */
  sbom: '/xray/ui/component/sbom',
  database: '/xray/ui/admin/database',
  databaseImport: '/xray/ui/admin/database/import',
  databaseFeed: '/xray/ui/admin/database/feed',
  databaseSync: '/xray/ui/admin/database/sync',
  policies: '/xray/ui/admin/policies',
  policy: '/xray/ui/admin/policies/:name',
  watches: '/xray/ui/admin/watches',
  watch: '/xray/ui/admin/watches/:name',
  ignoreRules: '/xray/ui/admin/ignore_rules',
  ignoreRule: '/xray/ui/admin/ignore_rules/:id',
  violations: '/xray/ui/admin/violations',
  /** POST: the security-compliance search type's results (packages §2) */
  securitySearch: '/xray/ui/search/security',
} as const

/** §7: the component list asks for 20 rows at a time, newest first. */
export const SCANNER_PAGE_ROWS = 20

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'unknown'

/** Which version a call is about: the packages browser's package id and the version's name. */
export interface ScannedVersionRef {
  package_id: string
  version: string
  repo?: string
  all_components?: boolean
}

export interface ScanSummary {
  /** waiting: stored, not yet scanned; not_scanned: the scanner could not read it (see reason) */
  state: 'waiting' | 'scanning' | 'scanned' | 'not_scanned'
  reason: string | null
  scannedAt: number | null
  os: string | null
  counts: { critical: number; high: number; medium: number; low: number; info: number; unknown: number; skipped: number } | null
}

export interface ComponentFinding {
  component: string
  ecosystem: string
  version: string
  path: string
  advisory_id: string
  aliases: string[]
  summary: string
  severity: Severity
  cvss_score: number | null
  fixed_versions: string[]
  published: string | null
  last_updated: string
}

export interface ComponentFindingsPage {
  total_count: number
  data: ComponentFinding[]
}

export interface AdvisoryDetails {
  id: string
  aliases: string[]
  summary: string
  details: string
  severity: Severity
  cvss_score: number | null
  cvss_vector: string | null
  published: string | null
  modified: string
  withdrawn: string | null
  references: { type: string; url: string }[]
  affected: { ecosystem: string; release: string; name: string; versions: string[]; fixed: string[] }[]
}

export interface AdvisoryImport {
  id: number
  source: string
  state: 'running' | 'done' | 'failed'
  records: number
  message: string | null
  startedAt: number
  finishedAt: number | null
  createdBy: string | null
}

/** After this many days without a successful import or sync, the advisory database counts as stale. */
export const ADVISORY_DATABASE_STALE_DAYS = 7

/**
 * What Trove says wherever a clean result could be read as "no vulnerabilities" (npm audit's
 * notice, the database screen) while the advisory database is empty or stale; null when current.
 */
export function advisoryDatabaseNotice(advisories: number, updatedAt: number | null, now = Date.now()): string | null {
  if (advisories === 0)
    return "Trove's advisory database is empty: no vulnerability can be reported until advisories are imported or a feed is synced"
  if (updatedAt === null) return null
  const days = Math.floor((now - updatedAt) / 86_400_000)
  if (days < ADVISORY_DATABASE_STALE_DAYS) return null
  return `Trove's advisory database was last updated ${days} days ago: vulnerabilities published since are not reported`
}

export interface AdvisoryDatabaseStatus {
  enabled: boolean
  advisories: number
  /** When the last import or feed sync finished successfully (ms), null if none did. */
  updatedAt: number | null
  /** Said while the database is empty or stale (advisoryDatabaseNotice), else null. */
  notice: string | null
  waiting: number
  feed: { url: string; intervalHours: number }
  imports: AdvisoryImport[]
}

/** What one import did: its row's id, the records read, and what was matched again. */
export interface AdvisoryImportResult {
  id: number
  records: number
  reevaluated: { versions: number; gitRepos: number; components: number }
}

/** The advisory feed: an http(s) URL ('' for none) and how often it is synced. */
export interface AdvisoryFeed {
  url: string
  intervalHours: number
}

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'unknown']

/** What follows a violation of a policy. */
export interface PolicyActions {
  notify: boolean
  failBuild: boolean
  blockDownload: boolean
}

/**
 * A policy as saved and sent: findings of `minSeverity` or worse violate it (null: security
 * findings do not); only `allowedLicenses` are allowed (null: any) and `deniedLicenses` never are.
 */
export interface SecurityPolicy {
  name: string
  description: string
  minSeverity: Severity | null
  allowedLicenses: string[] | null
  deniedLicenses: string[]
  actions: PolicyActions
}

/** A watch: which repositories ('*': all) the named policies apply to. */
export interface SecurityWatch {
  name: string
  repositories: string[]
  builds: string[]
  projects: string[]
  policies: string[]
}

/** The repository list's entry meaning every repository. */
export const ALL_REPOSITORIES = '*'

export type ViolationType = 'security' | 'license'

export interface Violation {
  watch: string
  policy: string
  type: ViolationType
  /** The advisory id, or the licence */
  issue: string
  severity: Severity | null
  component: string
  componentVersion: string
  packageId: string
  version: string
  repo: string
  blocksDownload: boolean
  failsBuild: boolean
}

/** GET admin/violations' filters (each optional). */
export interface ViolationFilter {
  repo?: string
  type?: ViolationType
  severity?: Severity
}

/** Accepts a violation: an advisory or a licence, optionally for one package (and version), until `expiresAt`. */
export interface IgnoreRuleForm {
  advisoryId: string | null
  license: string | null
  packageId: string | null
  version: string | null
  reason: string
  /** ISO date-time; null: until removed */
  expiresAt: string | null
}

export interface IgnoreRule extends IgnoreRuleForm {
  id: number
  createdBy: string
  createdAt: string
}

/** A version the security-compliance search found, and the component in it that matched. */
export interface SecuritySearchVersion {
  package_id: string
  version: string
  repo: string
  component: string
  component_version: string
}

/** The security-compliance search's answer: advisories with the versions they impact, and licensed versions. */
export interface SecuritySearchResult {
  advisories: {
    id: string
    aliases: string[]
    severity: Severity
    cvss_score: number | null
    summary: string
    published: string | null
    /** At most 100; impacted_count says how many in all */
    impacted: (SecuritySearchVersion & { fixed_versions: string[] })[]
    impacted_count: number
  }[]
  /** Versions whose components carry one of the licences asked for (at most 200) */
  licensed: (SecuritySearchVersion & { licenses: string[] })[]
}
