import { z } from 'zod'

/**
 * The packages browser's calls (packages §7 "Packages and versions"). Paths are relative to
 * CONSOLE_API_BASE (`/ui/api/v1`), like every console call. The metadata API itself answers at
 * METADATA_API_PATH for scripts; the console posts `{ graphQL: { query, variables } }` bodies to
 * the three `/mds` paths and gets the GraphQL answer back (`data.packages`, `data.package`,
 * `data.versions`).
 */
export const PACKAGES_PATHS = {
  packages: '/mds/packages',
  package: '/mds/package',
  versions: '/mds/versions',
  /** `{id}` is a Version id (see versionId), URL-encoded. */
  readme: (versionId: string) => `/ui/v1/native/versions/${encodeURIComponent(versionId)}/readme`,
  /** The readme of the version a file belongs to: `?path=<repoKey>/<file path>`. */
  readmeByPath: '/ui/v1/native/versions/readme',
  dependencies: '/ui/v1/native/versions/npm/dependencies',
  properties: '/ui/v1/native/versions/npm/props',
  artifactBuilds: '/ui/artifactbuilds',
  dockerLayers: '/ui/views/dockerv2',
  artifactCount: '/ui/home/widget/artifactCount',
  /** The spec writes this one with the console prefix already: `/ui/api/v1/download`. */
  download: '/download',
} as const

/** The public GraphQL endpoint (GraphiQL at `/metadata/api/v1/graphiql` for administrators). */
export const METADATA_API_PATH = '/metadata/api/v1/query'

/** Default list page size (§9). */
export const PACKAGES_PAGE_SIZE = 100
/** Largest `first` the metadata API accepts. */
export const PACKAGES_PAGE_MAX = 1000

/**
 * A package's id: `<type>://<name>` (`npm://@scope/left-pad`, `docker://library/nginx`,
 * `maven://org.example:lib`, `pypi://requests`). The part before `://` is the set-me-up type.
 */
export const packageIdOf = (type: string, name: string) => `${type}://${name}`
export function splitPackageId(id: string): { type: string; name: string } | null {
  const at = id.indexOf('://')
  if (at <= 0 || at + 3 >= id.length) return null
  return { type: id.slice(0, at), name: id.slice(at + 3) }
}
/** A version's id: `<package id>:<version name>` (version names never hold a colon). */
export const versionIdOf = (packageId: string, version: string) => `${packageId}:${version}`
export function splitVersionId(id: string): { packageId: string; version: string } | null {
  const at = id.lastIndexOf(':')
  const pkg = at > 0 ? id.slice(0, at) : ''
  if (!splitPackageId(pkg) || at + 1 >= id.length) return null
  return { packageId: pkg, version: id.slice(at + 1) }
}

export const SORT_DIRECTIONS = ['ASC', 'DESC'] as const
export const SortDirection = z.enum(SORT_DIRECTIONS)

/**
 * PackageFilter (§3). Globs: `*` any run of characters, `?` one character; without a wildcard the
 * match is exact. The console's query building (§5) lowercases the name into `lowercase_name`,
 * wraps the description in `*`, sends `'*'` for the type All and repositories only when non-empty.
 */
export const PackageFilter = z
  .object({
    /** One package type, or `*` for every type. */
    package_type: z.string().max(64).optional(),
    /** Several package types. */
    packageTypeIn: z.array(z.string().max(64)).max(50).optional(),
    /** Case-sensitive glob on the name. */
    name: z.string().max(512).optional(),
    /** Glob on the lowercased name (case-insensitive search). */
    lowercase_name: z.string().max(512).optional(),
    /** Case-insensitive glob on the description. */
    description: z.string().max(1024).optional(),
    /** Every tag listed (keywords). */
    tags: z.array(z.string().max(255)).max(50).optional(),
    /** npm scope, with or without the `@`. */
    scope: z.string().max(255).optional(),
    /**
     * Free text, not a glob: any part of the name (scope included), the description or a keyword,
     * case-insensitively. Ranked exact > prefix > word > inside the name > description or keyword
     * (order RELEVANCE, the default when this is set). Under 3 characters: the start of the name.
     */
    search: z.string().max(512).optional(),
    /** Only packages with a version in one of these repositories. */
    repositories: z.array(z.string().max(64)).max(100).optional(),
    /** Modified before / after: `YYYY-MM-DD` or an ISO 8601 time. */
    before: z.string().max(40).optional(),
    after: z.string().max(40).optional(),
    /** At least this many versions (the console sends 1). */
    versionCountMin: z.number().int().min(0).optional(),
  })
  .meta({ id: 'PackageFilter' })
export type PackageFilter = z.infer<typeof PackageFilter>

export const PACKAGE_ORDER_FIELDS = ['NAME', 'CREATED', 'MODIFIED', 'DOWNLOADS', 'RELEVANCE'] as const
/** Default: NAME ASC; RELEVANCE (rank, then name) when the filter has `search`. */
export const PackageOrder = z
  .object({ field: z.enum(PACKAGE_ORDER_FIELDS), direction: SortDirection.optional() })
  .meta({ id: 'PackageOrder' })
export type PackageOrder = z.infer<typeof PackageOrder>

/** VersionFilter (§3). */
export const VersionFilter = z
  .object({
    packageId: z.string().min(1).max(600),
    /** Glob on the version name (the console may add a trailing `*`). */
    name: z.string().max(255).optional(),
    /** Versions a dist-tag (npm `latest`, `next` …) points at. */
    tags: z.array(z.string().max(255)).max(50).optional(),
    /** Only versions in these repositories. */
    repos: z.array(z.string().max(64)).max(100).optional(),
    /** Created before / after: `YYYY-MM-DD` or an ISO 8601 time. */
    before: z.string().max(40).optional(),
    after: z.string().max(40).optional(),
    /** Versions declaring one of these licences. */
    licenses: z.array(z.string().max(255)).max(50).optional(),
    /** Versions with at least one vulnerability of one of these severities (none until scanned). */
    severities: z.array(z.string().max(32)).max(10).optional(),
    /** Versions affected by this advisory: its id or an alias (a CVE id). */
    cve: z.string().max(255).optional(),
    /** Only semver release versions (`x.y.z`, no pre-release). */
    ignorePreRelease: z.boolean().optional(),
  })
  .meta({ id: 'VersionFilter' })
export type VersionFilter = z.infer<typeof VersionFilter>

/** NAME_SEMVER orders names as semantic versions; NAME is plain text order. Default: NAME_SEMVER DESC. */
export const VERSION_ORDER_FIELDS = ['NAME_SEMVER', 'NAME', 'CREATED', 'MODIFIED'] as const
export const VersionOrder = z
  .object({ field: z.enum(VERSION_ORDER_FIELDS), direction: SortDirection.optional() })
  .meta({ id: 'VersionOrder' })
export type VersionOrder = z.infer<typeof VersionOrder>

export const Vulnerabilities = z.object({
  critical: z.number().int(),
  high: z.number().int(),
  medium: z.number().int(),
  low: z.number().int(),
  info: z.number().int(),
  unknown: z.number().int(),
  skipped: z.number().int(),
})
export type Vulnerabilities = z.infer<typeof Vulnerabilities>

export const LicenseInfo = z.object({ name: z.string(), source: z.string() })

/**
 * A Package node. Every field is optional because GraphQL answers only what was asked. Dates are
 * ISO 8601. `licenses` is null unless the licence includes security; `operationalRisk` is null
 * unless that feature is available; `vulnerabilities` is null when nothing scanned the package.
 */
export const PackageNode = z
  .object({
    id: z.string(),
    name: z.string(),
    packageType: z.string(),
    created: z.string(),
    modified: z.string(),
    versionsCount: z.number().int(),
    description: z.string(),
    latestVersion: z.string().nullable(),
    stats: z.object({ downloads: z.number(), followers: z.number() }),
    licenses: z.array(LicenseInfo).nullable(),
    tags: z.array(z.string()),
    vulnerabilities: Vulnerabilities.nullable(),
    operationalRisk: z.object({ riskLevel: z.string() }).nullable(),
  })
  .partial()
  .meta({ id: 'PackageNode' })
export type PackageNode = z.infer<typeof PackageNode>

export const VersionFile = z.object({
  name: z.string(),
  /** repository-relative path */
  path: z.string().optional(),
  lead: z.boolean(),
  size: z.number(),
  md5: z.string(),
  sha1: z.string(),
  sha256: z.string(),
  mimeType: z.string(),
})
export type VersionFile = z.infer<typeof VersionFile>

export const VersionRepo = z.object({
  name: z.string(),
  /** local, remote or virtual */
  type: z.string(),
  leadFilePath: z.string().nullable(),
})
export type VersionRepo = z.infer<typeof VersionRepo>

/** A Version node (one version name across the repositories holding it). */
export const VersionNode = z
  .object({
    id: z.string(),
    name: z.string(),
    created: z.string(),
    modified: z.string(),
    package: z.object({ id: z.string() }).partial(),
    repos: z.array(VersionRepo.partial()),
    licenses: z.array(LicenseInfo).nullable(),
    size: z.number(),
    stats: z.object({ downloadCount: z.number() }).partial(),
    vulnerabilities: Vulnerabilities.nullable(),
    operationalRisk: z.object({ riskLevel: z.string() }).nullable(),
    /** dist-tags pointing at this version */
    tags: z.array(z.string()),
    files: z.array(VersionFile.partial()),
  })
  .partial()
  .meta({ id: 'VersionNode' })
export type VersionNode = z.infer<typeof VersionNode>

export const PageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }).partial()
export const connection = <T extends z.ZodType>(node: T) =>
  z
    .object({
      edges: z.array(z.object({ node, cursor: z.string().optional() })),
      pageInfo: PageInfo,
      /** Only computed when asked for. */
      totalCount: z.number().int(),
    })
    .partial()
export const PackageConnection = connection(PackageNode).meta({ id: 'PackageConnection' })
export type PackageConnection = z.infer<typeof PackageConnection>
export const VersionConnection = connection(VersionNode).meta({ id: 'VersionConnection' })
export type VersionConnection = z.infer<typeof VersionConnection>

/** Variables of the three queries. */
export const PackagesVariables = z.object({
  filter: PackageFilter.optional(),
  first: z.number().int().min(1).max(PACKAGES_PAGE_MAX).optional(),
  after: z.string().max(1000).nullable().optional(),
  orderBy: PackageOrder.optional(),
})
export type PackagesVariables = z.infer<typeof PackagesVariables>
export const PackageVariables = z.object({ pkgid: z.string().min(1).max(600) })
export type PackageVariables = z.infer<typeof PackageVariables>
export const VersionsVariables = z.object({
  filter: VersionFilter,
  first: z.number().int().min(1).max(PACKAGES_PAGE_MAX).optional(),
  after: z.string().max(1000).nullable().optional(),
  orderBy: VersionOrder.optional(),
})
export type VersionsVariables = z.infer<typeof VersionsVariables>

/**
 * Body of the three `/mds` calls. `graphQL.query` is a GraphQL document (the *_QUERY constants
 * below, or any query of the schema); `variables` go with it. The list call may also carry the
 * search model's `limit`, `query`, `sort_by` and `sort_type` (kept for the console's own
 * bookkeeping; the server reads only the GraphQL part).
 */
export const MdsRequest = z
  .object({
    graphQL: z.object({
      query: z.string().min(1).max(20_000),
      variables: z.record(z.string(), z.unknown()).optional(),
      operationName: z.string().max(255).optional(),
    }),
    limit: z.number().int().optional(),
    query: z.string().max(2000).optional(),
    sort_by: z.string().max(64).optional(),
    sort_type: z.string().max(16).optional(),
  })
  .meta({ id: 'MdsRequest' })
export type MdsRequest = z.infer<typeof MdsRequest>

/** Answers: the GraphQL result. A bad query is a 400 with `{ errors: [{ status, message }] }`. */
export const MdsPackagesResponse = z.object({ data: z.object({ packages: PackageConnection }) }).meta({ id: 'MdsPackages' })
export type MdsPackagesResponse = z.infer<typeof MdsPackagesResponse>
export const MdsPackageResponse = z.object({ data: z.object({ package: PackageNode.nullable() }) }).meta({ id: 'MdsPackage' })
export type MdsPackageResponse = z.infer<typeof MdsPackageResponse>
export const MdsVersionsResponse = z.object({ data: z.object({ versions: VersionConnection }) }).meta({ id: 'MdsVersions' })
export type MdsVersionsResponse = z.infer<typeof MdsVersionsResponse>

/** Selections the console can use as they are. */
export const PACKAGE_FIELDS = `id name packageType created modified versionsCount description latestVersion
  stats { downloads followers } tags
  vulnerabilities { critical high medium low info unknown skipped }`
/** Add these when the licence / the operational-risk feature allow (they are null otherwise). */
export const PACKAGE_LICENSE_FIELDS = 'licenses { name source }'
export const PACKAGE_RISK_FIELDS = 'operationalRisk { riskLevel }'
export const VERSION_FIELDS = `id name created modified package { id } repos { name type leadFilePath }
  size stats { downloadCount } tags vulnerabilities { critical high medium low info unknown skipped }`
export const VERSION_FILE_FIELDS = 'files { name path lead size md5 sha1 sha256 mimeType }'

export const PACKAGES_QUERY = `query Packages($filter: PackageFilter, $first: Int, $after: String, $orderBy: PackageOrder) {
  packages(filter: $filter, first: $first, after: $after, orderBy: $orderBy) {
    edges { node { ${PACKAGE_FIELDS} } }
    pageInfo { hasNextPage endCursor }
  }
}`
export const PACKAGES_COUNT_QUERY = `query PackagesCount($filter: PackageFilter) {
  packages(filter: $filter, first: 1) { totalCount }
}`
export const PACKAGE_QUERY = `query Package($pkgid: ID!) {
  package(pkgid: $pkgid) { ${PACKAGE_FIELDS} }
}`
export const VERSIONS_QUERY = `query Versions($filter: VersionFilter!, $first: Int, $after: String, $orderBy: VersionOrder) {
  versions(filter: $filter, first: $first, after: $after, orderBy: $orderBy) {
    edges { node { ${VERSION_FIELDS} } }
    pageInfo { hasNextPage endCursor }
  }
}`
/** The same with the files (§5: the console asks for files only for docker packages). */
export const VERSIONS_WITH_FILES_QUERY = VERSIONS_QUERY.replace(VERSION_FIELDS, `${VERSION_FIELDS} ${VERSION_FILE_FIELDS}`)

/** Query of the version-scoped calls: a Version id, or `path=<repoKey>/<file path>`. */
export const VersionRefQuery = z
  .object({ id: z.string().max(700).optional(), path: z.string().max(2100).optional() })
  .refine((q) => q.id !== undefined || q.path !== undefined, 'give id or path')
export type VersionRefQuery = z.infer<typeof VersionRefQuery>
export const ReadmeQuery = z.object({ path: z.string().max(2100).optional() })

export const ReadmeResponse = z.object({ readme: z.string().nullable() }).meta({ id: 'ReadmeResponse' })
export type ReadmeResponse = z.infer<typeof ReadmeResponse>

export const Dependency = z.object({ name: z.string(), range: z.string(), scope: z.string() })
export const DependenciesResponse = z.object({ dependencies: z.array(Dependency) }).meta({ id: 'DependenciesResponse' })
export type DependenciesResponse = z.infer<typeof DependenciesResponse>

/** Properties of the version's lead file (or of the file at `path`). */
export const PropertiesResponse = z
  .object({ path: z.string().nullable(), properties: z.array(z.object({ name: z.string(), values: z.array(z.string()) })) })
  .meta({ id: 'PropertiesResponse' })
export type PropertiesResponse = z.infer<typeof PropertiesResponse>

/** GET /ui/artifactbuilds and POST /ui/views/dockerv2 name a file by repository and path. */
export const ArtifactRef = z.object({ repoKey: z.string().min(1).max(64), path: z.string().min(1).max(2048) })
export type ArtifactRef = z.infer<typeof ArtifactRef>

export const ArtifactBuild = z.object({
  name: z.string(),
  number: z.string(),
  /** ISO 8601 */
  started: z.string(),
  /** the CI job's URL, when the build info gave one */
  ciUrl: z.string().nullable(),
  moduleId: z.string(),
})
export type ArtifactBuild = z.infer<typeof ArtifactBuild>
/** Builds that produced the file (module artifacts) and that used it (module dependencies), matched by checksum. */
export const ArtifactBuildsResponse = z
  .object({ producedBy: z.array(ArtifactBuild), usedBy: z.array(ArtifactBuild) })
  .meta({ id: 'ArtifactBuildsResponse' })
export type ArtifactBuildsResponse = z.infer<typeof ArtifactBuildsResponse>

export const DockerLayersRequest = ArtifactRef.extend({ view: z.literal('dockerv2').optional() })
export type DockerLayersRequest = z.infer<typeof DockerLayersRequest>
export const DockerLayer = z.object({
  /** the layer's digest (`sha256:…`), or null for a history step that made no layer */
  digest: z.string().nullable(),
  shortId: z.string().nullable(),
  size: z.number(),
  /** ISO 8601, when the image config says */
  created: z.string().nullable(),
  /** the build step (`RUN …`, `COPY …`) from the config's history */
  command: z.string().nullable(),
  emptyLayer: z.boolean(),
})
export type DockerLayer = z.infer<typeof DockerLayer>
export const DockerLayersResponse = z
  .object({
    tagInfo: z.object({
      title: z.string(),
      digest: z.string(),
      totalSize: z.number(),
      architecture: z.string().nullable(),
      os: z.string().nullable(),
      created: z.string().nullable(),
    }),
    layers: z.array(DockerLayer),
    /** OCI 1.1: what refers to the tag's manifest (signatures, SBOMs, attestations). */
    referrers: z.array(
      z.object({
        digest: z.string(),
        artifactType: z.string().nullable(),
        mediaType: z.string(),
        size: z.number(),
        created: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'DockerLayersResponse' })
export type DockerLayersResponse = z.infer<typeof DockerLayersResponse>

export const ArtifactCountResponse = z
  .object({ widgetData: z.object({ artifactCount: z.number().int() }) })
  .meta({ id: 'ArtifactCountResponse' })
export type ArtifactCountResponse = z.infer<typeof ArtifactCountResponse>

/** GET /ui/api/v1/download?repoKey=&path= streams the file as an attachment. */
export const DownloadQuery = ArtifactRef

/**
 * PUT /api/build (also /artifactory/api/build): build info as CI tools publish it. Unknown fields
 * are kept in the stored document. `started` is ISO 8601 (`2024-05-01T10:00:00.000+0000` too).
 */
const BuildItem = z
  .object({
    name: z.string().max(512).optional(),
    id: z.string().max(512).optional(),
    type: z.string().max(64).optional(),
    sha1: z
      .string()
      .regex(/^[a-f0-9]{40}$/i)
      .optional(),
    sha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/i)
      .optional(),
    md5: z
      .string()
      .regex(/^[a-f0-9]{32}$/i)
      .optional(),
  })
  .loose()
export const BuildInfoInput = z
  .object({
    version: z.string().max(32).optional(),
    name: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .regex(/^[^/\\]+$/, 'a build name holds no slash'),
    number: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .regex(/^[^/\\]+$/, 'a build number holds no slash'),
    started: z.string().max(64),
    url: z.string().max(2048).optional(),
    agent: z
      .object({ name: z.string().max(255).optional(), version: z.string().max(255).optional() })
      .loose()
      .optional(),
    modules: z
      .array(
        z
          .object({
            id: z.string().min(1).max(512),
            artifacts: z.array(BuildItem).max(10_000).optional(),
            dependencies: z.array(BuildItem).max(10_000).optional(),
          })
          .loose(),
      )
      .max(1000)
      .optional(),
  })
  .loose()
  .meta({ id: 'BuildInfoInput' })
export type BuildInfoInput = z.infer<typeof BuildInfoInput>
