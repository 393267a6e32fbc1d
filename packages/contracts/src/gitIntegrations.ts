import { z } from 'zod'
import {
  CONNECTION_STATUSES,
  GIT_REPO_SELECTION_MAX,
  GIT_VENDORS,
  INTEGRATION_TYPES,
  GIT_INTEGRATION_LIMITS as L,
} from './gitIntegrationConstants.js'
import { Messages } from './messages.js'

export * from './gitIntegrationConstants.js'

const required = (message: string, max: number, field: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, `${field}: at most ${max} characters`)

/** §3: the vendor is sent by name, or by its numeric code in one place. */
const VendorRef = z.union([z.string(), z.number().int()]).transform((v, ctx) => {
  const vendor = GIT_VENDORS.find((g) => g.name === String(v) || g.id === Number(v))
  if (!vendor) {
    ctx.addIssue({ code: 'custom', message: `vendorName: not a git vendor (${GIT_VENDORS.map((g) => g.name).join(', ')})` })
    return z.NEVER
  }
  return vendor.name
})

/** §3: the type is git by default, numeric in one place. */
const IntegrationTypeRef = z
  .union([z.literal('git'), z.literal(INTEGRATION_TYPES.git), z.literal(String(INTEGRATION_TYPES.git))])
  .optional()
  .transform(() => 'git' as const)

/**
 * POST /integration/test, POST /integration, PUT /integration/{key} (§3 "Git integration form").
 * The token may be left empty on update or on a test of a saved integration: the stored one is used.
 */
export const GitIntegrationForm = z.object({
  integrationName: required(Messages.integrationNameRequired, L.integrationNameMax, 'integrationName'),
  userName: required(Messages.userNameRequired, L.userNameMax, 'userName'),
  token: z.string().max(L.tokenMax, `token: at most ${L.tokenMax} characters`).default(''),
  url: z.string().trim().max(L.urlMax, `url: at most ${L.urlMax} characters`).default(''),
  vendorName: VendorRef,
  integrationType: IntegrationTypeRef,
  integrationKey: z.string().max(64).optional(),
})
export type GitIntegrationForm = z.input<typeof GitIntegrationForm>

/** What the vendor answered to a passing connection test. */
export const ConnectionTestResult = z.object({ connected: z.literal(true), vendorUser: z.string() })
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>

/** POST /integration answers the new key as its data (§7). */
export const IntegrationKeyData = z.object({ data: z.string() })

/** §3 "Each connected integration", with its connection status; the token is never part of it. */
export const GitIntegration = z.object({
  key: z.string(),
  vendorName: z.string(),
  name: z.string(),
  type: z.literal('git'),
  url: z.string(),
  username: z.string(),
  products: z.array(z.string()),
  status: z.enum(CONNECTION_STATUSES),
  statusMessage: z.string().nullable(),
  checkedAt: z.number().nullable(),
})
export type GitIntegration = z.infer<typeof GitIntegration>

/** §3 "Vendor item". */
export const VendorItem = z.object({
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  configured: z.boolean(),
  connected: z.boolean(),
  integrations: z.array(GitIntegration),
})
export type VendorItem = z.infer<typeof VendorItem>

/** GET /integration/getIntegrations: §3 "Integration group (from the server)". */
export const IntegrationGroup = z.object({ type: z.literal('git'), available: z.boolean(), items: z.array(VendorItem) })
export const IntegrationGroups = z.array(IntegrationGroup)
export type IntegrationGroup = z.infer<typeof IntegrationGroup>

/** GET /xray/ui/vcs_integrations: §3 "Scanner-connected integration records carry integration_id". */
export const VcsIntegration = z.object({
  integration_id: z.string(),
  name: z.string(),
  vendor: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  selected: z.number(),
})
export const VcsIntegrations = z.array(VcsIntegration)
export type VcsIntegration = z.infer<typeof VcsIntegration>

/** A repository the integration's token can see. */
export const GitRepository = z.object({
  fullName: z.string(),
  cloneUrl: z.string(),
  defaultBranch: z.string().nullable(),
  private: z.boolean(),
})
export type GitRepository = z.infer<typeof GitRepository>

export const GitRepositoryQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) })
export const GitRepositoryPage = z.object({
  repositories: z.array(GitRepository),
  page: z.number(),
  nextPage: z.number().nullable(),
})
export type GitRepositoryPage = z.infer<typeof GitRepositoryPage>

/** PUT …/selected: the repositories the security scanner is to scan, by full name. */
export const GitRepoSelection = z.object({
  repositories: z.array(z.string().min(1).max(512)).max(GIT_REPO_SELECTION_MAX),
})

const Severity = z.enum(['critical', 'high', 'medium', 'low', 'unknown'])

/** Distinct advisories found in a repository, by severity. */
export const GitScanCounts = z.object({
  critical: z.number(),
  high: z.number(),
  medium: z.number(),
  low: z.number(),
  unknown: z.number(),
})
export type GitScanCounts = z.infer<typeof GitScanCounts>

/**
 * The security scanner's view of a selected repository: waiting (not read yet), scanning,
 * scanned (counts set), or not_scanned (the clone failed or could not be read: see reason).
 */
export const GitRepoScan = z.object({
  state: z.enum(['waiting', 'scanning', 'scanned', 'not_scanned']),
  reason: z.string().nullable(),
  commit: z.string().nullable(),
  scannedAt: z.number().nullable(),
  counts: GitScanCounts.nullable(),
})
export type GitRepoScan = z.infer<typeof GitRepoScan>

export const SelectedRepository = z.object({
  fullName: z.string(),
  cloneUrl: z.string(),
  status: z.enum(['pending', 'cloned', 'failed']),
  headCommit: z.string().nullable(),
  error: z.string().nullable(),
  clonedAt: z.number().nullable(),
  scan: GitRepoScan,
})
export type SelectedRepository = z.infer<typeof SelectedRepository>
export const SelectedRepositories = z.array(SelectedRepository)

/** POST …/repositories/findings: one page (GIT_FINDINGS_PAGE_ROWS rows) of a selected repository's findings. */
export const GitRepoFindingsRequest = z.object({
  repository: z.string().min(1).max(512),
  page: z.number().int().min(1).max(100_000).default(1),
})
export type GitRepoFindingsRequest = z.input<typeof GitRepoFindingsRequest>

/** A component of the repository (from the manifest at `path`) that an advisory affects. */
export const GitRepoFinding = z.object({
  component: z.string(),
  ecosystem: z.string(),
  version: z.string(),
  path: z.string(),
  advisory_id: z.string(),
  aliases: z.array(z.string()),
  summary: z.string(),
  severity: Severity,
  cvss_score: z.number().nullable(),
  fixed_versions: z.array(z.string()),
  published: z.string().nullable(),
  last_updated: z.string(),
})
export type GitRepoFinding = z.infer<typeof GitRepoFinding>
export const GitRepoFindingsPage = z.object({ total_count: z.number(), data: z.array(GitRepoFinding) })
export type GitRepoFindingsPage = z.infer<typeof GitRepoFindingsPage>
