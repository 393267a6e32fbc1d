import type { PackageFilter, PackageOrder, VersionFilter, VersionOrder } from '@trove/contracts/packages'
import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql'
import type { PackagesService, Viewer, Wanted } from './service.js'

/** The metadata API's schema (packages §3): packages, one package, versions; cursor paging. */
export const schema = /* GraphQL */ `
  """
  Packages across repositories. Dates are ISO 8601 strings. Fields the licence or features
  withhold (licenses without a security licence, operationalRisk without that feature) are null;
  vulnerabilities are null when nothing scanned the package.
  """
  type Query {
    packages(filter: PackageFilter, first: Int, after: String, orderBy: PackageOrder): PackageConnection!
    package(pkgid: ID!): Package
    versions(filter: VersionFilter!, first: Int, after: String, orderBy: VersionOrder): VersionConnection!
  }

  "Globs: * any run of characters, ? one character; without a wildcard the match is exact."
  input PackageFilter {
    "one package type, or * for all"
    package_type: String
    packageTypeIn: [String!]
    name: String
    lowercase_name: String
    description: String
    tags: [String!]
    scope: String
    "free text, not a glob: any part of the name, scope, description or a keyword; ranked (order RELEVANCE)"
    search: String
    repositories: [String!]
    "modified before (YYYY-MM-DD or ISO 8601)"
    before: String
    "modified on or after"
    after: String
    versionCountMin: Int
  }

  enum SortDirection {
    ASC
    DESC
  }
  enum PackageOrderField {
    NAME
    CREATED
    MODIFIED
    DOWNLOADS
    "exact name > prefix > word > inside the name > description or keyword; then by name"
    RELEVANCE
  }
  input PackageOrder {
    field: PackageOrderField!
    direction: SortDirection
  }

  input VersionFilter {
    packageId: ID!
    name: String
    tags: [String!]
    repos: [String!]
    "created before (YYYY-MM-DD or ISO 8601)"
    before: String
    "created on or after"
    after: String
    licenses: [String!]
    severities: [String!]
    "affected by this advisory (its id, or an alias such as a CVE id)"
    cve: String
    ignorePreRelease: Boolean
  }
  enum VersionOrderField {
    NAME_SEMVER
    NAME
    CREATED
    MODIFIED
  }
  input VersionOrder {
    field: VersionOrderField!
    direction: SortDirection
  }

  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }

  type PackageStats {
    downloads: Float!
    followers: Int!
  }
  type License {
    name: String!
    source: String!
  }
  type Vulnerabilities {
    critical: Int!
    high: Int!
    medium: Int!
    low: Int!
    info: Int!
    unknown: Int!
    skipped: Int!
  }
  type OperationalRisk {
    riskLevel: String!
  }

  type Package {
    "<type>://<name>"
    id: ID!
    name: String!
    packageType: String!
    created: String!
    modified: String!
    versionsCount: Int!
    description: String!
    latestVersion: String
    stats: PackageStats!
    licenses: [License!]
    tags: [String!]!
    vulnerabilities: Vulnerabilities
    operationalRisk: OperationalRisk
  }
  type PackageEdge {
    node: Package!
    cursor: String!
  }
  type PackageConnection {
    edges: [PackageEdge!]!
    pageInfo: PageInfo!
    "computed only when asked for"
    totalCount: Int
  }

  type VersionRepo {
    name: String!
    "local or remote"
    type: String!
    leadFilePath: String
  }
  type VersionStats {
    downloadCount: Float!
  }
  type VersionFile {
    name: String!
    path: String!
    lead: Boolean!
    size: Float!
    md5: String!
    sha1: String!
    sha256: String!
    mimeType: String!
  }
  type VersionPackage {
    id: ID!
  }
  type Version {
    "<package id>:<version name>"
    id: ID!
    name: String!
    created: String!
    modified: String!
    package: VersionPackage!
    repos: [VersionRepo!]!
    licenses: [License!]
    size: Float!
    stats: VersionStats!
    vulnerabilities: Vulnerabilities
    operationalRisk: OperationalRisk
    "dist-tags (npm latest, next …) pointing at this version"
    tags: [String!]!
    files: [VersionFile!]!
  }
  type VersionEdge {
    node: Version!
    cursor: String!
  }
  type VersionConnection {
    edges: [VersionEdge!]!
    pageInfo: PageInfo!
  }
`

export interface GqlContext {
  viewer: () => Promise<Viewer>
  packages: PackagesService
}

/** Names of the fields selected at `path` below the current field (fragments followed). */
function selected(info: GraphQLResolveInfo, path: string[]): Set<string> {
  const out = new Set<string>()
  const visit = (set: SelectionSetNode | undefined, rest: string[]) => {
    if (!set) return
    for (const sel of set.selections) {
      if (sel.kind === 'Field') {
        if (rest.length === 0) out.add(sel.name.value)
        else if (sel.name.value === rest[0]) visit(sel.selectionSet, rest.slice(1))
      } else if (sel.kind === 'InlineFragment') visit(sel.selectionSet, rest)
      else if (sel.kind === 'FragmentSpread') visit(info.fragments[sel.name.value]?.selectionSet, rest)
    }
  }
  for (const node of info.fieldNodes as FieldNode[]) visit(node.selectionSet, path)
  return out
}

function wantedOf(fields: Set<string>, top?: Set<string>): Wanted {
  return {
    versionsCount: fields.has('versionsCount'),
    latestVersion: fields.has('latestVersion'),
    tags: fields.has('tags'),
    licenses: fields.has('licenses'),
    files: fields.has('files') || fields.has('repos'),
    totalCount: top?.has('totalCount') ?? false,
  }
}

export const resolvers = {
  Query: {
    packages: async (
      _root: unknown,
      args: { filter?: PackageFilter; first?: number; after?: string; orderBy?: PackageOrder },
      ctx: GqlContext,
      info: GraphQLResolveInfo,
    ) => ctx.packages.packages(await ctx.viewer(), args, wantedOf(selected(info, ['edges', 'node']), selected(info, []))),
    package: async (_root: unknown, args: { pkgid: string }, ctx: GqlContext, info: GraphQLResolveInfo) =>
      ctx.packages.package(await ctx.viewer(), args.pkgid, wantedOf(selected(info, []))),
    versions: async (
      _root: unknown,
      args: { filter: VersionFilter; first?: number; after?: string; orderBy?: VersionOrder },
      ctx: GqlContext,
      info: GraphQLResolveInfo,
    ) => ctx.packages.versions(await ctx.viewer(), args, wantedOf(selected(info, ['edges', 'node']))),
  },
}
