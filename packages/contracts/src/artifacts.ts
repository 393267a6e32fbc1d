import { z } from 'zod'
import { PACKAGE_TYPES, REPO_CLASSES } from './repositoryConstants.js'
import { ARTIFACTS_TREE_PATH } from './searchConstants.js'

export { ARTIFACTS_TREE_PATH }
/** Children per page of the tree (keyset paging). */
export const TREE_PAGE_DEFAULT = 200
export const TREE_PAGE_MAX = 1000
export const PATH_MAX = 2048
export const PROPERTY_NAME_MAX = 255
export const PROPERTY_VALUE_MAX = 4000

/**
 * A path inside a repository as the console and REST calls take it: no `.` or `..` segment, no NUL
 * or other control character, no backslash. Leading and trailing slashes are dropped.
 */
export const RepoPath = z
  .string()
  .max(PATH_MAX)
  .refine(
    (p) => ![...p].some((c) => c <= '\u001f' || c === '\u007f' || c === '\\'),
    'must not contain control characters or backslashes',
  )
  .refine((p) => !p.split('/').some((s) => s === '.' || s === '..'), 'must not contain . or .. segments')
  .transform((p) => p.replace(/^\/+|\/+$/g, '').replace(/\/{2,}/g, '/'))

const RepoKeyParam = z.string().min(1).max(64)

/** GET /ui/api/v1/ui/artifacts/tree: a folder's children (or the repositories, without repoKey). */
export const TreeQuery = z.object({
  repoKey: RepoKeyParam.optional(),
  path: RepoPath.default(''),
  /** The last child of the previous page (its `key`). */
  after: z.string().max(PATH_MAX).optional(),
  /** Children from this key on, itself included (a deep link's window around the node it opens). */
  from: z.string().max(PATH_MAX).optional(),
  /** Only children whose name starts with this. */
  filter: z.string().max(255).optional(),
  limit: z.coerce.number().int().min(1).max(TREE_PAGE_MAX).default(TREE_PAGE_DEFAULT),
})
export type TreeQuery = z.input<typeof TreeQuery>

export const TreeNode = z.object({
  /** Sorts the children; a folder's ends with `/`. Pass the last one as `after` for the next page. */
  key: z.string(),
  name: z.string(),
  /** The path inside the repository ('' for a repository). */
  path: z.string(),
  repoKey: z.string(),
  type: z.enum(['repository', 'folder', 'file']),
  size: z.number().optional(),
  lastModified: z.string().optional(),
  /** Repositories only. */
  rclass: z.enum(REPO_CLASSES).optional(),
  packageType: z.enum(PACKAGE_TYPES).optional(),
})
export type TreeNode = z.infer<typeof TreeNode>
export const TreeResponse = z.object({ nodes: z.array(TreeNode), next: z.string().nullable() }).meta({ id: 'TreeResponse' })
export type TreeResponse = z.infer<typeof TreeResponse>

export const NodeRef = z.object({ repoKey: RepoKeyParam, path: RepoPath.default('') })
export type NodeRef = z.input<typeof NodeRef>

export const Checksums = z.object({ sha256: z.string(), sha1: z.string(), md5: z.string() })

/** GET /ui/api/v1/ui/artifacts/info: the General tab of a repository, folder or file. */
export const NodeInfo = z
  .object({
    repoKey: z.string(),
    path: z.string(),
    name: z.string(),
    type: z.enum(['repository', 'folder', 'file']),
    rclass: z.enum(REPO_CLASSES),
    packageType: z.enum(PACKAGE_TYPES),
    /** For a virtual repository's node: the member that holds it. */
    sourceRepoKey: z.string().optional(),
    size: z.number().optional(),
    created: z.string().optional(),
    lastModified: z.string().optional(),
    deployedBy: z.string().nullable().optional(),
    downloadCount: z.number().optional(),
    lastDownloaded: z.string().nullable().optional(),
    mimeType: z.string().optional(),
    checksums: Checksums.optional(),
    /** A file of a package version: its id in the packages browser. */
    packageId: z.string().nullable().optional(),
    versionName: z.string().nullable().optional(),
    /** What the caller may do here. */
    actions: z.array(z.enum(['read', 'annotate', 'deploy', 'delete', 'manage'])),
    downloadUri: z.string().optional(),
    /** Where a file is shown inline, sandboxed: set when the server has a download origin (TROVE_DOWNLOAD_BASE_URL). */
    viewUri: z.string().optional(),
  })
  .meta({ id: 'NodeInfo' })
export type NodeInfo = z.infer<typeof NodeInfo>

export const Property = z.object({ name: z.string(), values: z.array(z.string()) })
export type Property = z.infer<typeof Property>
export const NodeProperties = z.object({ properties: z.array(Property) }).meta({ id: 'NodeProperties' })
export type NodeProperties = z.infer<typeof NodeProperties>

const PropertyName = z
  .string()
  .min(1)
  .max(PROPERTY_NAME_MAX)
  .regex(/^[^=;,|\s]+$/, 'must not contain spaces or any of = ; , |')

/** PUT /ui/api/v1/ui/artifacts/properties: sets (replaces) one property; on a folder optionally on everything below. */
export const SetPropertyRequest = NodeRef.extend({
  name: PropertyName,
  values: z.array(z.string().max(PROPERTY_VALUE_MAX)).min(1).max(100),
  recursive: z.boolean().default(false),
})
export type SetPropertyRequest = z.input<typeof SetPropertyRequest>
/** DELETE /ui/api/v1/ui/artifacts/properties?repoKey&path&name[&recursive=true]. */
export const DeletePropertyQuery = NodeRef.extend({
  name: PropertyName,
  recursive: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
})
export type DeletePropertyQuery = z.input<typeof DeletePropertyQuery>
export const PropertyChangeResponse = z.object({ files: z.number() }).meta({ id: 'PropertyChangeResponse' })

/** Files deleted, and the nearest folder above that still holds files ('' for the repository). */
export const DeleteNodeResponse = z.object({ files: z.number(), parent: z.string() }).meta({ id: 'DeleteNodeResponse' })
export type DeleteNodeResponse = z.infer<typeof DeleteNodeResponse>

/** POST /ui/api/v1/ui/artifacts/copy and /move. */
export const CopyMoveRequest = NodeRef.extend({
  targetRepoKey: RepoKeyParam,
  /** The path of the copy; defaults to the same path. */
  targetPath: RepoPath.optional(),
  dryRun: z.boolean().default(false),
})
export type CopyMoveRequest = z.input<typeof CopyMoveRequest>
export const CopyMoveResponse = z
  .object({
    dryRun: z.boolean(),
    /** Files copied or moved (or that would be). */
    files: z.number(),
    /** Target paths that already hold a file. */
    conflicts: z.array(z.string()),
    /** True when nothing was (or would be) done because of conflicts or permissions. */
    refused: z.boolean(),
    messages: z.array(z.string()),
  })
  .meta({ id: 'CopyMoveResponse' })
export type CopyMoveResponse = z.infer<typeof CopyMoveResponse>

/**
 * GET /api/search/artifact?name=…&repos=…: files whose name holds `name` (any part of it, `*` and
 * `?` as wildcards), among the repositories the caller may read. Each result is a storage URI; with
 * the request header `X-Result-Detail: info` (as Artifactory answers it) also the file's details.
 */
export const ARTIFACT_SEARCH_PATH = '/api/search/artifact'
export const RESULT_DETAIL_HEADER = 'x-result-detail'
/** The most files one artifact search answers. */
export const ARTIFACT_SEARCH_LIMIT = 1000
export const ArtifactSearchResult = z.object({
  uri: z.string(),
  repo: z.string().optional(),
  /** From the repository's root, with a leading '/' (Artifactory's shape). */
  path: z.string().optional(),
  name: z.string().optional(),
  size: z.number().optional(),
  created: z.string().optional(),
  lastModified: z.string().optional(),
  createdBy: z.string().nullable().optional(),
  mimeType: z.string().optional(),
  downloadUri: z.string().optional(),
})
export type ArtifactSearchResult = z.infer<typeof ArtifactSearchResult>
export const ArtifactSearchResponse = z.object({ results: z.array(ArtifactSearchResult) }).meta({ id: 'ArtifactSearch' })
export type ArtifactSearchResponse = z.infer<typeof ArtifactSearchResponse>
