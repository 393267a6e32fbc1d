import { z } from 'zod'

/**
 * Release bundles and their distribution (packages-and-operations §7, shell §2.5). A bundle is an
 * immutable, signed list of files (with their package versions) made on a source node and shipped
 * to target nodes, which expose the files in their own repositories.
 */

export const DISTRIBUTION_UI = '/distribution/api/ui'
export const DISTRIBUTION_API = '/distribution/api/v1'
/** Where a node publishes the public keys its bundles are signed with. */
export const BUNDLE_KEYS_PATH = '/.well-known/trove/release-bundle-keys'

export const BUNDLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
export const BUNDLE_VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}$/
const name = z
  .string()
  .regex(BUNDLE_NAME, 'expected letters, digits, dots, dashes or underscores (at most 128), a letter or digit first')
const version = z.string().regex(BUNDLE_VERSION, 'expected letters, digits, dots, plus, dashes or underscores (at most 64)')
export const BundleName = name
export const BundleVersion = version

/** Where a bundle's files come from. */
export const BundleSource = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('version'),
    repoKey: z.string().min(1),
    packageType: z.string().min(1),
    name: z.string().min(1),
    version: z.string().min(1),
  }),
  z.object({ type: z.literal('path'), repoKey: z.string().min(1), path: z.string() }),
  z.object({ type: z.literal('build'), name: z.string().min(1), number: z.string().min(1) }),
  z.object({
    type: z.literal('query'),
    repoKey: z.string().min(1),
    /** A path pattern: `*` any characters but `/`, `**` any characters. */
    path: z.string().default('**'),
    properties: z.record(z.string(), z.string()).default({}),
  }),
])
export type BundleSource = z.infer<typeof BundleSource>

export const CreateBundle = z
  .object({
    name,
    version,
    description: z.string().max(1000).default(''),
    releaseNotes: z.string().max(100_000).default(''),
    sources: z.array(BundleSource).max(1000).default([]),
  })
  .meta({ id: 'CreateBundle' })
export type CreateBundle = z.infer<typeof CreateBundle>

export const UpdateBundle = z
  .object({
    description: z.string().max(1000).optional(),
    releaseNotes: z.string().max(100_000).optional(),
    add: z.array(BundleSource).max(1000).default([]),
    /** Files to leave out again: `<repoKey>/<path>`. */
    remove: z.array(z.string()).max(10_000).default([]),
  })
  .meta({ id: 'UpdateBundle' })
export type UpdateBundle = z.infer<typeof UpdateBundle>

/** open: still changing; signed: frozen; distributed: signed and whole on at least one target (source side). */
export const BUNDLE_STATES = ['open', 'signed', 'distributed'] as const
export const BUNDLE_ORIGINS = ['source', 'target'] as const
export const DISTRIBUTION_STATES = ['waiting', 'running', 'completed', 'failed', 'deleting', 'deleted'] as const

export const BundleFile = z.object({
  repoKey: z.string(),
  path: z.string(),
  sha256: z.string(),
  sha1: z.string(),
  md5: z.string(),
  size: z.number(),
  packageType: z.string().nullable(),
  packageName: z.string().nullable(),
  packageVersion: z.string().nullable(),
})
export type BundleFile = z.infer<typeof BundleFile>

export const DistributionView = z.object({
  target: z.string(),
  state: z.enum(DISTRIBUTION_STATES),
  filesDone: z.number(),
  filesTotal: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  nextAttemptAt: z.number().nullable(),
})
export type DistributionView = z.infer<typeof DistributionView>

export const BundleSummary = z
  .object({
    name: z.string(),
    version: z.string(),
    description: z.string(),
    state: z.enum(BUNDLE_STATES),
    origin: z.enum(BUNDLE_ORIGINS),
    createdBy: z.string().nullable(),
    createdAt: z.number(),
    signedAt: z.number().nullable(),
    files: z.number(),
    size: z.number(),
    /** Target bundles: where it came from, and whether its signature and files checked out. */
    sourceUrl: z.string().nullable(),
    verified: z.boolean(),
    /** Source bundles: each target it was sent to, and how that stands. */
    distributedTo: z.array(z.object({ target: z.string(), state: z.enum(DISTRIBUTION_STATES) })).default([]),
  })
  .meta({ id: 'BundleSummary' })
export type BundleSummary = z.infer<typeof BundleSummary>

export const BundleDetails = BundleSummary.extend({
  releaseNotes: z.string(),
  keyId: z.string().nullable(),
  signature: z.string().nullable(),
  contents: z.array(BundleFile),
  distributions: z.array(DistributionView),
}).meta({ id: 'BundleDetails' })
export type BundleDetails = z.infer<typeof BundleDetails>

export const BundleList = z.object({ bundles: z.array(BundleSummary) }).meta({ id: 'BundleList' })
export type BundleList = z.infer<typeof BundleList>

export const BundleListQuery = z.object({
  origin: z.enum(BUNDLE_ORIGINS).default('source'),
  /** Name, version or a contained file's checksum. */
  q: z.string().max(200).optional(),
})

export const Distribute = z
  .object({ targets: z.array(z.string().min(1)).min(1, 'at least one target').max(100) })
  .meta({ id: 'Distribute' })

export const TargetInput = z
  .object({
    url: z.url({ error: 'expected an absolute http(s) URL' }).refine((u) => /^https?:\/\//.test(u), 'expected an http(s) URL'),
    token: z.string().min(1, 'a token of an administrator of the target is required').max(4000),
  })
  .meta({ id: 'TargetInput' })
export type TargetInput = z.infer<typeof TargetInput>

export const TargetView = z.object({ name: z.string(), url: z.string(), createdAt: z.number(), createdBy: z.string().nullable() })
export type TargetView = z.infer<typeof TargetView>
export const TargetList = z.object({ targets: z.array(TargetView) }).meta({ id: 'TargetList' })

export const HISTORY_ACTIONS = ['distribute', 'receive', 'delete', 'recall', 'retention'] as const
export const HistoryEntry = z.object({
  id: z.number(),
  bundle: z.string(),
  version: z.string(),
  action: z.enum(HISTORY_ACTIONS),
  /** The other node: the target distributed to, or the source received from. */
  peer: z.string().nullable(),
  actor: z.string().nullable(),
  at: z.number(),
  result: z.enum(['success', 'failure']),
  detail: z.string(),
})
export type HistoryEntry = z.infer<typeof HistoryEntry>
export const HistoryPage = z.object({ entries: z.array(HistoryEntry), total: z.number() }).meta({ id: 'HistoryPage' })
export type HistoryPage = z.infer<typeof HistoryPage>
export const HistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
})

/** GET /distribution/api/ui/release_bundle/checksum/{checksum}: `data` is the list (§7). */
export const ChecksumLookupQuery = z.object({ num_of_rows: z.coerce.number().int().min(1).max(1000).default(50) })
export const ChecksumMatch = z.object({
  name: z.string(),
  version: z.string(),
  origin: z.enum(BUNDLE_ORIGINS),
  state: z.enum(BUNDLE_STATES),
  created: z.number(),
  repoKey: z.string(),
  path: z.string(),
  sha256: z.string(),
})
export type ChecksumMatch = z.infer<typeof ChecksumMatch>
export const ChecksumLookup = z.object({ data: z.array(ChecksumMatch) }).meta({ id: 'ChecksumLookup' })
export type ChecksumLookup = z.infer<typeof ChecksumLookup>

/** Target bundle retention (§4, §6): off by default. */
export const RetentionPolicy = z
  .object({
    enable: z.boolean(),
    /** Keep the newest N versions of each bundle (0: no limit by count). */
    keepLast: z.number().int().min(0).max(10_000),
    /** Remove versions received more than D days ago (0: no limit by age). */
    maxAgeDays: z.number().int().min(0).max(36_500),
  })
  .meta({ id: 'RetentionPolicy' })
export type RetentionPolicy = z.infer<typeof RetentionPolicy>

export const SigningKey = z.object({
  id: z.string(),
  algorithm: z.literal('ed25519'),
  publicKey: z.string(),
  createdAt: z.number(),
  active: z.boolean(),
})
export type SigningKey = z.infer<typeof SigningKey>
export const SigningKeys = z.object({ keys: z.array(SigningKey) }).meta({ id: 'SigningKeys' })
export type SigningKeys = z.infer<typeof SigningKeys>

/**
 * The signed manifest. Its canonical text (manifestText) is what is signed and what a target
 * verifies; every file carries the package version it belongs to, so a target records the same
 * versions its clients read.
 */
export const ManifestVersion = z.object({
  repoKey: z.string(),
  packageType: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  readme: z.string().nullable(),
  licenses: z.array(z.string()),
  dependencies: z.array(z.object({ name: z.string(), range: z.string(), scope: z.string() })),
  metadata: z.unknown(),
  distTags: z.array(z.string()),
  createdAt: z.number(),
})
export type ManifestVersion = z.infer<typeof ManifestVersion>
export const ManifestFile = z.object({
  repoKey: z.string(),
  path: z.string(),
  sha256: z.string(),
  sha1: z.string(),
  md5: z.string(),
  size: z.number(),
  mimeType: z.string(),
  lead: z.boolean(),
  /** Index into `versions`, or null for a file of no version. */
  version: z.number().int().nullable(),
})
export type ManifestFile = z.infer<typeof ManifestFile>
export const ManifestRepository = z.object({ key: z.string(), packageType: z.string() })
export const BundleManifest = z.object({
  format: z.literal('trove-release-bundle/1'),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  releaseNotes: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.number(),
  signedAt: z.number(),
  repositories: z.array(ManifestRepository),
  versions: z.array(ManifestVersion),
  files: z.array(ManifestFile),
})
export type BundleManifest = z.infer<typeof BundleManifest>

/** A signed bundle's manifest as signed, with its signature: anyone may check it with the published key. */
export const SignedManifest = z
  .object({ manifest: z.string(), signature: z.string(), keyId: z.string() })
  .meta({ id: 'SignedManifest' })
export type SignedManifest = z.infer<typeof SignedManifest>

/** Node to node: a signed bundle handed to a target once its files are there. */
export const IncomingBundle = z
  .object({ manifest: z.string().max(64 * 1024 * 1024), signature: z.string().max(1000), keyId: z.string().max(200) })
  .meta({ id: 'IncomingBundle' })
export type IncomingBundle = z.infer<typeof IncomingBundle>
export const TrustedSource = z
  .object({ source: z.string().min(1).max(200), url: z.string().max(2000), keys: z.array(SigningKey).max(100) })
  .meta({ id: 'TrustedSource' })
export type TrustedSource = z.infer<typeof TrustedSource>
/** What a target says it already holds of a list of blobs (so a resumed distribution skips them). */
export const BlobsQuery = z.object({ sha256: z.array(z.string().regex(/^[a-f0-9]{64}$/)).max(10_000) })
export const BlobsPresent = z.object({ present: z.array(z.string()) })
