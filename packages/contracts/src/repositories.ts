import { z } from 'zod'
import { Messages } from './messages.js'
import { PACKAGE_TYPES, REPO_CLASSES, REPO_KEY_MAX, REPO_KEY_PATTERN, RESERVED_REPO_KEYS } from './repositoryConstants.js'

export {
  PACKAGE_TYPE_LABELS,
  PACKAGE_TYPES,
  REPO_CLASSES,
  REPO_KEY_MAX,
  REPO_KEY_PATTERN,
  RESERVED_REPO_KEYS,
  SAMPLE_REPOSITORIES,
} from './repositoryConstants.js'

export const PackageType = z.enum(PACKAGE_TYPES)
export type PackageType = z.infer<typeof PackageType>
export const RepoClass = z.enum(REPO_CLASSES)
export type RepoClass = z.infer<typeof RepoClass>

export const RepoKey = z
  .string()
  .min(1, Messages.fieldMandatory)
  .max(REPO_KEY_MAX, `at most ${REPO_KEY_MAX} characters`)
  .regex(REPO_KEY_PATTERN, Messages.invalidName)
  .refine((k) => k !== '.' && k !== '..' && !RESERVED_REPO_KEYS.includes(k.toLowerCase()), 'this name is reserved')

const url = z.url({ error: Messages.invalidUrl }).refine((u) => /^https?:\/\//i.test(u), Messages.invalidUrl)

/**
 * A repository's configuration, in the layout `GET/PUT/POST /api/repositories/{key}` use
 * (the widespread one tools expect). Fields of other classes are ignored. The password is
 * write-only: answers carry `hasPassword` instead.
 */
const RepositoryConfigFields = z.object({
  key: RepoKey.optional(),
  rclass: RepoClass,
  packageType: PackageType,
  description: z.string().max(1024).optional(),
  notes: z.string().max(10_000).optional(),
  includesPattern: z.string().max(1024).optional(),
  excludesPattern: z.string().max(1024).optional(),
  // remote
  url: url.optional(),
  username: z.string().max(255).optional(),
  password: z.string().max(1024).optional(),
  offline: z.boolean().optional(),
  retrievalCachePeriodSecs: z.number().int().min(0).max(31_536_000).optional(),
  missedRetrievalCachePeriodSecs: z.number().int().min(0).max(31_536_000).optional(),
  unusedArtifactsCleanupPeriodHours: z.number().int().min(0).max(87_600).optional(),
  // virtual
  repositories: z.array(RepoKey).max(100).optional(),
  defaultDeploymentRepo: RepoKey.or(z.literal('')).optional(),
})
// Bodies are left unnamed in the OpenAPI document: their input and output forms differ (refined keys).
export const RepositoryConfigInput = RepositoryConfigFields
export type RepositoryConfigInput = z.infer<typeof RepositoryConfigInput>

/** The same for updates: every field optional. */
export const RepositoryConfigUpdate = RepositoryConfigFields.partial()
export type RepositoryConfigUpdate = z.infer<typeof RepositoryConfigUpdate>

export const RepositoryConfig = z
  .object({
    key: z.string(),
    rclass: RepoClass,
    packageType: PackageType,
    description: z.string(),
    notes: z.string(),
    includesPattern: z.string(),
    excludesPattern: z.string(),
    url: z.string().optional(),
    username: z.string().optional(),
    hasPassword: z.boolean().optional(),
    offline: z.boolean().optional(),
    retrievalCachePeriodSecs: z.number().int().optional(),
    missedRetrievalCachePeriodSecs: z.number().int().optional(),
    unusedArtifactsCleanupPeriodHours: z.number().int().optional(),
    repositories: z.array(z.string()).optional(),
    defaultDeploymentRepo: z.string().optional(),
    created: z.number().int(),
    modified: z.number().int(),
  })
  .meta({ id: 'RepositoryConfig' })
export type RepositoryConfig = z.infer<typeof RepositoryConfig>

/** One row of `GET /api/repositories`. */
export const RepositorySummary = z
  .object({
    key: z.string(),
    type: z.enum(['LOCAL', 'REMOTE', 'VIRTUAL']),
    description: z.string(),
    url: z.string(),
    /** What the repository's package client is configured with (clientUrlOf): the console shows it. */
    clientUrl: z.string(),
    packageType: z.string(),
  })
  .meta({ id: 'RepositorySummary' })
export type RepositorySummary = z.infer<typeof RepositorySummary>

export const RepositoryListQuery = z.object({
  type: RepoClass.optional(),
  packageType: PackageType.optional(),
})

/** Body of quick creation: the sample repositories of one package type. */
export const QuickCreateRequest = z
  .object({
    packageType: PackageType,
    /** The upstream of the sample remote repository; without it no remote is made. */
    remoteUrl: url.optional(),
  })
  .meta({ id: 'QuickCreateRequest' })
export const QuickCreateResponse = z
  .object({ created: z.array(z.string()), existing: z.array(z.string()) })
  .meta({ id: 'QuickCreateResponse' })
export type QuickCreateResponse = z.infer<typeof QuickCreateResponse>

/**
 * POST /ui/api/v1/ui/onboarding/quickSetup (shell §2.6): the sample repositories of several package
 * types at once, all or none. `upstreams` overrides a remote's default upstream per type.
 */
export const QuickSetupRequest = z
  .object({
    packageTypes: z.array(PackageType).min(1, 'choose at least one package type').max(PACKAGE_TYPES.length),
    upstreams: z.partialRecord(PackageType, url).optional(),
  })
  .meta({ id: 'QuickSetupRequest' })
export type QuickSetupRequest = z.input<typeof QuickSetupRequest>
export const QuickSetupResponse = z
  .object({
    repositories: z.array(z.object({ key: z.string(), rclass: RepoClass, packageType: PackageType })),
  })
  .meta({ id: 'QuickSetupResponse' })
export type QuickSetupResponse = z.infer<typeof QuickSetupResponse>
