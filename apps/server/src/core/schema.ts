import type { Generated } from 'kysely'

/**
 * The database as Kysely sees it. Portable across SQLite and PostgreSQL: times are epoch
 * milliseconds (bigint), flags are 0/1 integers (SQLite cannot bind booleans).
 */
export interface Database {
  users: UsersTable
  sessions: SessionsTable
  tokens: TokensTable
  signin_failures: SigninFailuresTable
  settings: SettingsTable
  mail_tokens: MailTokensTable
  cli_logins: CliLoginsTable
  invitations: InvitationsTable
  // operations
  nodes: NodesTable
  node_services: NodeServicesTable
  node_peers: NodePeersTable
  support_bundles: SupportBundlesTable
  // single sign-on
  oauth_providers: OAuthProvidersTable
  sso_states: SsoStatesTable
  // access control
  groups: GroupsTable
  group_members: GroupMembersTable
  permission_targets: PermissionTargetsTable
  permission_grants: PermissionGrantsTable
  roles: RolesTable
  projects: ProjectsTable
  project_members: ProjectMembersTable
  audit_events: AuditEventsTable
  // repositories
  blobs: BlobsTable
  repositories: RepositoriesTable
  repository_members: RepositoryMembersTable
  packages: PackagesTable
  package_tags: PackageTagsTable
  package_versions: PackageVersionsTable
  package_dependencies: PackageDependenciesTable
  dist_tags: DistTagsTable
  files: FilesTable
  builds: BuildsTable
  build_items: BuildItemsTable
  file_properties: FilePropertiesTable
  remote_cache: RemoteCacheTable
  // shell
  user_local_storage: UserLocalStorageTable
  onboarding_steps: OnboardingStepsTable
  user_custom_data: UserCustomDataTable
  reverse_proxies: ReverseProxiesTable
  // contact us
  contact_requests: ContactRequestsTable
  // git integrations
  git_integrations: GitIntegrationsTable
  git_scan_repositories: GitScanRepositoriesTable
  advisories: AdvisoriesTable
  advisory_packages: AdvisoryPackagesTable
  advisory_imports: AdvisoryImportsTable
  scan_status: ScanStatusTable
  scan_components: ScanComponentsTable
  scan_findings: ScanFindingsTable
  scan_policies: ScanPoliciesTable
  scan_watches: ScanWatchesTable
  scan_ignore_rules: ScanIgnoreRulesTable
  // distribution (migration 0110)
  release_bundles: ReleaseBundlesTable
  release_bundle_files: ReleaseBundleFilesTable
  signing_keys: SigningKeysTable
  trusted_keys: TrustedKeysTable
  distribution_targets: DistributionTargetsTable
  distributions: DistributionsTable
  distribution_history: DistributionHistoryTable
  openpgp_keys: OpenPgpKeysTable
  debian_files: DebianFilesTable
  cluster_identity: ClusterIdentityTable
  // the registry's chunked uploads with blobs in a bucket (migration 0130)
  registry_uploads: RegistryUploadsTable
  registry_upload_chunks: RegistryUploadChunksTable
  // the Overview dashboard's aggregates (migration 0133, services/dashboard)
  dashboard_deltas: DashboardDeltasTable
  dashboard_days: DashboardDaysTable
  dashboard_repositories: DashboardRepositoriesTable
  dashboard_activity: DashboardActivityTable
}

/** A contact-us request (shell §3), kept whether or not its mail went out. */
export interface ContactRequestsTable {
  id: Generated<number>
  created_at: number
  /** The signed-in user who sent it. */
  user_name: string | null
  first_name: string
  last_name: string
  country: string
  email: string
  help_option: string
  comment: string | null
  marketo_data_key: string | null
  context: string | null
  /** pending, sent, failed or unsent (ContactDeliveryStatus) */
  delivery_status: string
  delivery_recipient: string | null
  delivery_error: string | null
  delivered_at: number | null
}

// ---- access control: groups, permission targets, roles, projects, audit ----

export interface GroupsTable {
  id: Generated<number>
  name: string
  description: string
  auto_join: number
  admin_privileges: number
  created_at: number
  updated_at: number
}

export interface GroupMembersTable {
  group_id: number
  user_id: number
}

export interface PermissionTargetsTable {
  id: Generated<number>
  name: string
  /** JSON: { repositories?, builds?, releaseBundles? }, each { names, include, exclude } */
  resources: string
  created_at: number
  updated_at: number
}

export interface PermissionGrantsTable {
  target_id: number
  resource_kind: 'repositories' | 'builds' | 'releaseBundles'
  grantee_kind: 'user' | 'group' | 'anonymous'
  /** user or group id; 0 for the anonymous caller */
  grantee_id: number
  /** comma-separated actions */
  actions: string
}

export interface RolesTable {
  id: Generated<number>
  name: string
  description: string
  type: 'project' | 'global'
  actions: string
  capabilities: string
  predefined: number
  created_at: number
}

export interface ProjectsTable {
  id: Generated<number>
  key: string
  display_name: string
  description: string
  storage_quota_bytes: number | null
  created_at: number
  updated_at: number
}

export interface ProjectMembersTable {
  project_id: number
  member_kind: 'user' | 'group'
  member_id: number
  role_id: number
}

export interface AuditEventsTable {
  id: Generated<number>
  at: number
  actor: string
  action: string
  target_type: string
  target_name: string
  /** JSON */
  details: string
}

export interface InvitationsTable {
  key_hash: string
  email: string
  admin: number
  invited_by: number | null
  created_at: number
  expires_at: number
  used_at: number | null
}

export interface CliLoginsTable {
  session_hash: string
  created_at: number
  expires_at: number
  approved_by: number | null
  tokens_sealed: string | null
}

export interface MailTokensTable {
  key_hash: string
  user_id: number
  purpose: 'reset'
  created_at: number
  expires_at: number
  used_at: number | null
}

export interface SettingsTable {
  key: string
  /** JSON */
  value: string
  updated_at: number
}

export interface UsersTable {
  id: Generated<number>
  name: string
  email: string | null
  password_hash: string | null
  realm: string
  admin: number
  disabled: number
  created_at: number
  updated_at: number
  mfa_secret_encrypted: string | null
  mfa_enroll_secret_encrypted: string | null
  mfa_last_step: number | null
  mfa_required: Generated<number>
  password_changed_at: number | null
}

export interface SessionsTable {
  /** sha256 of the cookie token: a stolen database does not yield usable cookies. */
  id: string
  user_id: number
  csrf_token: string
  remember_me: number
  created_at: number
  expires_at: number
  last_seen_at: number
  ip: string | null
  user_agent: string | null
  mfa_pending: Generated<number>
  mfa_failures: Generated<number>
}

/** refresh tokens only buy new access tokens: they are never accepted as credentials. */
export type TokenKind = 'access' | 'api_key' | 'refresh'

export interface TokensTable {
  id: string
  user_id: number
  kind: TokenKind
  secret_hash: string
  secret_encrypted: string | null
  description: string | null
  created_at: number
  expires_at: number | null
  last_used_at: number | null
  /** Access tokens: full, deploy or read (what the token may do within its owner's rights). */
  scope: Generated<'full' | 'deploy' | 'read'>
}

export interface SigninFailuresTable {
  /** `user:<name>` or `ip:<address>` */
  key: string
  failures: number
  first_failure_at: number
  locked_until: number | null
}

// ---- operations: nodes of the cluster and support bundles ----

export interface NodesTable {
  node_id: string
  url: string
  version: string
  started_at: number
  heartbeat_ms: number
  last_heartbeat: number
}

/** What `observer_id` last saw of `peer_id` (migration 0090). */
export interface NodePeersTable {
  observer_id: string
  peer_id: string
  peer_last_heartbeat: number
  observed_at: number
}

export interface NodeServicesTable {
  node_id: string
  service: string
  started_at: number
  last_heartbeat: number
}

export interface SupportBundlesTable {
  id: string
  name: string
  description: string
  service: string
  node_id: string
  created_at: number
  status: string
  size: number | null
  /** JSON of the creation parameters */
  parameters: string
}

// --- single sign-on (OAuth / OpenID Connect providers, authorization requests under way) ---

export interface OAuthProvidersTable {
  id: Generated<number>
  name: string
  type: string
  issuer_url: string
  client_id: string
  client_secret_sealed: string
  icon: string | null
  enabled: number
  auto_create_users: number
  /** JSON array of group names */
  default_groups: string
  created_at: number
  updated_at: number
}

export interface SsoStatesTable {
  state_hash: string
  provider_id: number
  nonce: string
  code_verifier: string
  redirect_uri: string
  created_at: number
  expires_at: number
}

// ── repositories ─────────────────────────────────────────────────────────────

export interface BlobsTable {
  sha256: string
  size: number
  md5: string
  sha1: string
  created_at: number
  touched_at: number
}

export type RepoClass = 'local' | 'remote' | 'virtual'

export interface RepositoriesTable {
  key: string
  rclass: RepoClass
  package_type: string
  description: Generated<string>
  notes: Generated<string>
  includes_pattern: Generated<string>
  excludes_pattern: Generated<string>
  url: string | null
  username: string | null
  password_sealed: string | null
  offline: Generated<number>
  metadata_cache_secs: Generated<number>
  artifact_cache_secs: Generated<number>
  missed_cache_secs: Generated<number>
  default_deployment_repo: string | null
  created_at: number
  updated_at: number
}

export interface RepositoryMembersTable {
  virtual_key: string
  member_key: string
  position: number
}

export interface PackagesTable {
  id: Generated<number>
  package_type: string
  name: string
  lowercase_name: string
  description: Generated<string>
  latest_version: string | null
  downloads: Generated<number>
  created_at: number
  modified_at: number
}

export interface PackageTagsTable {
  package_id: number
  tag: string
}

export interface PackageVersionsTable {
  id: Generated<number>
  package_id: number
  repo_key: string
  version: string
  description: Generated<string>
  readme: string | null
  /** JSON array of licence names as the package declares them */
  licenses: Generated<string>
  size: Generated<number>
  download_count: Generated<number>
  deprecated: string | null
  /** JSON: what the format needs to answer its clients */
  metadata: Generated<string>
  created_by: string | null
  created_at: number
  modified_at: number
  /** byte order = semver order (storage/semverKey.ts) */
  semver_key: Generated<string>
  /** 1 for a semver release (x.y.z) */
  release: Generated<number>
}

export interface PackageDependenciesTable {
  version_id: number
  name: string
  range: string
  scope: string
}

export interface DistTagsTable {
  package_id: number
  repo_key: string
  tag: string
  version: string
}

export interface BuildsTable {
  id: Generated<number>
  name: string
  number: string
  started: string
  started_at: number
  url: string | null
  agent: string | null
  info: string
  created_by: string | null
  created_at: number
  /** The run's promotion status (its latest `statuses` entry) or top-level `status`, as published. */
  status: string | null
}

export interface BuildItemsTable {
  build_id: number
  module_id: string
  kind: 'artifact' | 'dependency'
  name: string
  sha1: string | null
  sha256: string | null
  md5: string | null
}

export interface FilesTable {
  id: Generated<number>
  repo_key: string
  path: string
  name: string
  version_id: number | null
  lead: Generated<number>
  size: number
  md5: string
  sha1: string
  sha256: string
  mime_type: string
  download_count: Generated<number>
  last_downloaded_at: number | null
  created_by: string | null
  created_at: number
  modified_at: number
}

export interface FilePropertiesTable {
  file_id: number
  name: string
  value: string
}

export interface RemoteCacheTable {
  repo_key: string
  path: string
  sha256: string | null
  status: number
  content_type: string | null
  fetched_at: number
}

// shell: per-user console state and reverse proxy configurations
export interface UserLocalStorageTable {
  user_id: number
  key: string
  value: string
  updated_at: number
}

export interface OnboardingStepsTable {
  user_id: number
  step: string
  /** JSON: the step's stepDataObject */
  data: string
  is_completed: number
  is_valid: number
  updated_at: number
}

export interface UserCustomDataTable {
  user_id: number
  /** JSON: the flattened questionnaire */
  data: string
  updated_at: number
}

export interface ReverseProxiesTable {
  key: string
  /** JSON of the ReverseProxy contract */
  config: string
  created_at: number
  updated_at: number
}

/** A git vendor connection (packages-and-operations §3); the token is sealed, never returned. */
export interface GitIntegrationsTable {
  id: Generated<number>
  key: string
  vendor: string
  name: string
  url: string
  user_name: string
  token_sealed: string
  status: string
  status_message: string | null
  /** When the vendor was last asked (ms); the periodic re-test claims a row by moving it. */
  checked_at: number
  created_at: number
  created_by: string | null
}

/** A repository selected for the security scanner, and where its clone stands. */
export interface GitScanRepositoriesTable {
  id: Generated<number>
  integration_id: number
  full_name: string
  clone_url: string
  status: string
  head_commit: string | null
  error: string | null
  selected_at: number
  cloned_at: number | null
  /** The scanner's last look at the clone's manifests (scanned, not_scanned) */
  scan_state: string | null
  scan_reason: string | null
  scanned_at: number | null
  scanned_commit: string | null
}

/** An OSV advisory (services/scanner/types.ts#Advisory). */
export interface AdvisoriesTable {
  id: string
  modified: string
  published: string | null
  withdrawn: string | null
  /** JSON string array */
  aliases: string
  summary: string
  details: string
  severity: string
  cvss_score: number | null
  cvss_vector: string | null
  /** JSON array of { type, url } */
  refs: string
  imported_at: number
}

export interface AdvisoryPackagesTable {
  advisory_id: string
  ecosystem: string
  release: string
  name: string
  /** JSON { ranges, versions } */
  affected: string
}

export interface AdvisoryImportsTable {
  id: Generated<number>
  source: string
  started_at: number
  finished_at: number | null
  /** running, done, failed */
  state: string
  records: Generated<number>
  message: string | null
  created_by: string | null
}

/** Where a version's scan stands; no row: waiting to be scanned. */
export interface ScanStatusTable {
  version_id: number
  /** scanning, scanned, not_scanned */
  state: string
  reason: string | null
  claimed_by: string | null
  claimed_at: number
  scanned_at: number | null
  os: string | null
  critical: Generated<number>
  high: Generated<number>
  medium: Generated<number>
  low: Generated<number>
  unknown: Generated<number>
}

export interface ScanComponentsTable {
  id: Generated<number>
  version_id: number | null
  git_repo_id: number | null
  ecosystem: string
  release: string
  name: string
  version: string
  path: string
  binary_name: string | null
  /** JSON array of { name, spdx } */
  licenses: string
}

export interface ScanFindingsTable {
  version_id: number | null
  git_repo_id: number | null
  component_id: number
  advisory_id: string
  severity: string
  /** JSON string array */
  fixed: string
}

export interface ScanPoliciesTable {
  id: Generated<number>
  name: string
  description: string
  /** JSON (services/scanner/policies.ts#PolicyRules) */
  rules: string
  created_at: number
  updated_at: number
}

export interface ScanWatchesTable {
  id: Generated<number>
  name: string
  /** JSON (services/scanner/policies.ts#WatchResources) */
  resources: string
  created_at: number
  updated_at: number
}

export interface ScanIgnoreRulesTable {
  id: Generated<number>
  advisory_id: string | null
  license: string | null
  package_id: string | null
  version: string | null
  reason: string
  expires_at: number | null
  created_by: string | null
  created_at: number
}

export interface ReleaseBundlesTable {
  id: Generated<number>
  name: string
  version: string
  origin: 'source' | 'target'
  state: 'open' | 'signed'
  description: string
  release_notes: string
  created_by: string | null
  created_at: number
  signed_at: number | null
  key_id: string | null
  signature: string | null
  /** The canonical manifest text that was signed (null while open) */
  manifest: string | null
  source_url: string | null
  verified: Generated<number>
}

export interface ReleaseBundleFilesTable {
  bundle_id: number
  repo_key: string
  path: string
  sha256: string
  sha1: string
  md5: string
  size: number
  package_type: string | null
  package_name: string | null
  package_version: string | null
}

export interface SigningKeysTable {
  id: string
  algorithm: string
  public_key: string
  /** sealed (core/secretBox.ts) */
  private_key: string
  created_at: number
  active: number
}

export interface TrustedKeysTable {
  id: string
  source: string
  source_url: string
  public_key: string
  created_at: number
}

export interface DistributionTargetsTable {
  name: string
  url: string
  /** sealed (core/secretBox.ts) */
  token: string
  created_by: string | null
  created_at: number
}

export interface DistributionsTable {
  id: Generated<number>
  bundle_id: number
  target: string
  state: 'waiting' | 'running' | 'completed' | 'failed' | 'deleting' | 'deleted'
  files_done: Generated<number>
  files_total: Generated<number>
  bytes_done: Generated<number>
  bytes_total: Generated<number>
  attempts: Generated<number>
  last_error: string | null
  started_at: number | null
  finished_at: number | null
  next_attempt_at: number | null
  claimed_by: string | null
  claimed_at: number | null
  actor: string | null
}

export interface DistributionHistoryTable {
  id: Generated<number>
  bundle: string
  version: string
  action: 'distribute' | 'receive' | 'delete' | 'recall' | 'retention'
  peer: string | null
  actor: string | null
  at: number
  result: 'success' | 'failure'
  detail: string
}

export interface OpenPgpKeysTable {
  fingerprint: string
  /** armored */
  public_key: string
  /** armored, sealed (core/secretBox.ts) */
  private_key: string
  created_at: number
  active: number
}

export interface DebianFilesTable {
  file_id: number
  repo_key: string
  architecture: string
  /** space-separated */
  distributions: string
  /** space-separated */
  components: string
  /** the .deb's control paragraph, as deb822 text */
  control: string
}

/** The cluster's one row: its id and the check value of the master key (core/cluster.ts). */
export interface ClusterIdentityTable {
  singleton: number
  id: string
  key_check: string
  created_at: number
}

/** A chunked registry upload in progress, when the blobs live in a bucket (formats/docker/bucketUploads.ts). */
export interface RegistryUploadsTable {
  id: string
  repo_key: string
  image: string
  /** Bytes received so far: the sum of its chunks. */
  size: number
  /** 1 once a chunk broke off midway: the upload must start again. */
  broken: number
  /** The request writing it (`<node id>/<process>/<request>`), or null between requests. */
  holder: string | null
  /** When the holder took it or last said it is still writing. */
  held_at: number | null
  created_at: number
  touched_at: number
}

/** A chunk of a registry upload: the object one request wrote, recorded once complete. */
export interface RegistryUploadChunksTable {
  upload_id: string
  byte_offset: number
  size: number
  object_key: string
  /** The chunk's own checksums, hashed as it streamed in (null in rows of earlier releases). */
  sha256: string | null
  sha1: string | null
  md5: string | null
}

/** Counts by severity, as the scanner keeps them per version. */
interface SeverityCounts {
  critical: Generated<number>
  high: Generated<number>
  medium: Generated<number>
  low: Generated<number>
  unknown: Generated<number>
}

/** One change the triggers of migration 0133 saw, waiting to be folded into the two tables below. */
export interface DashboardDeltasTable extends SeverityCounts {
  id: Generated<number>
  /** days since 1970-01-01 (UTC) */
  day: number
  repo_key: string
  downloads: Generated<number>
  uploads: Generated<number>
  bytes: Generated<number>
  files: Generated<number>
}

/** A repository's day: downloads, uploads, and the net change of bytes and files stored. */
export interface DashboardDaysTable {
  day: number
  repo_key: string
  downloads: Generated<number>
  uploads: Generated<number>
  bytes: Generated<number>
  files: Generated<number>
}

/** A repository now: bytes and files stored, downloads and uploads ever, the scanner's counts. */
export interface DashboardRepositoriesTable extends SeverityCounts {
  repo_key: string
  downloads: Generated<number>
  uploads: Generated<number>
  bytes: Generated<number>
  files: Generated<number>
}

/** A publish (or a remote's cached version), a deleted version or a sign-in. */
export interface DashboardActivityTable {
  id: Generated<number>
  at: number
  kind: 'publish' | 'cache' | 'delete' | 'signin'
  actor: string | null
  repo_key: string | null
  package_type: string | null
  name: string | null
  version: string | null
}
