// Git integrations (packages-and-operations §2 "Git integration screens", §3 "Integrations",
// §4 "Git integration modal", §7 "Integrations") without zod, so the console's form and the
// server's schema share one set of rules.

/** The console's paths, after /ui/api/v1 (§7 "Integrations"). */
export const INTEGRATION_PATHS = {
  list: '/integration/getIntegrations',
  byType: '/integration/integrations/:type',
  test: '/integration/test',
  create: '/integration',
  one: '/integration/:integrationKey',
  vcsIntegrations: '/xray/ui/vcs_integrations',
  repositories: '/xray/ui/vcs_integrations/:integrationId/repositories',
  selection: '/xray/ui/vcs_integrations/:integrationId/selected',
  /** POST {repository, page}: one page of a selected repository's findings */
  repositoryFindings: '/xray/ui/vcs_integrations/:integrationId/repositories/findings',
} as const

/**
 * §3: the four source-control vendors, coded 1 to 4 in the catalogue's order: two hosted git
 * services, then the cloud and server forms of a third. `name` is the route's vendorName.
 */
export const GIT_VENDORS = [
  { id: 1, name: 'github', displayName: 'GitHub', defaultUrl: 'https://api.github.com' },
  { id: 2, name: 'gitlab', displayName: 'GitLab', defaultUrl: 'https://gitlab.com' },
  { id: 3, name: 'bitbucket', displayName: 'Bitbucket Cloud', defaultUrl: 'https://api.bitbucket.org' },
  { id: 4, name: 'bitbucketServer', displayName: 'Bitbucket Server', defaultUrl: '' },
] as const
export type GitVendorName = (typeof GIT_VENDORS)[number]['name']
export const GIT_VENDOR_NAMES = GIT_VENDORS.map((v) => v.name) as [GitVendorName, ...GitVendorName[]]

export const gitVendor = (name: string) => GIT_VENDORS.find((v) => v.name === name || String(v.id) === name)

/** §3: integration types (unknown 0, git 1). */
export const INTEGRATION_TYPES = { unknown: 0, git: 1 } as const

/** §3: connection statuses. */
export const CONNECTION_STATUSES = ['CONFIGURED', 'CONNECTED', 'DISCONNECTED'] as const
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number]

/** Field lengths of the git form (the spec is silent; these fit every vendor's own limits). */
export const GIT_INTEGRATION_LIMITS = {
  integrationNameMax: 64,
  userNameMax: 255,
  tokenMax: 4096,
  urlMax: 2048,
} as const

/** §3: the services a git integration can serve; the security scanner is the one Trove runs. */
export const INTEGRATION_SERVICES = [
  { name: 'xray', displayName: 'Security scanner', disabled: false },
  { name: 'pipelines', displayName: 'Pipelines', disabled: true },
] as const

/** Repositories the vendor lists per page, and the most a selection may hold. */
export const GIT_REPO_PAGE_SIZE = 50
export const GIT_REPO_SELECTION_MAX = 500
/** Findings of a selected repository per page, as the scanner's other lists show them. */
export const GIT_FINDINGS_PAGE_ROWS = 20
