import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { CONSOLE_API_BASE } from '@trove/contracts/http'
import {
  type ArtifactBuildsResponse,
  type ArtifactRef,
  type DependenciesResponse,
  type DockerLayersResponse,
  type MdsPackageResponse,
  type MdsPackagesResponse,
  type MdsRequest,
  type MdsVersionsResponse,
  PACKAGE_FIELDS,
  PACKAGE_QUERY,
  PACKAGES_PATHS,
  type PackageConnection,
  type PackageNode,
  type PropertiesResponse,
  type ReadmeResponse,
  VERSIONS_QUERY,
  VERSIONS_WITH_FILES_QUERY,
  type VersionConnection,
  type VersionNode,
  type VersionsVariables,
} from '@trove/contracts/packages'
import { apiRequest } from '../../../lib/api'

const EMPTY: PackageConnection = { edges: [], pageInfo: { hasNextPage: false, endCursor: null } }

/** POST /mds/packages: one page of the list. §8: a failed list fetch becomes an empty list, silently. */
export async function fetchPackages(body: MdsRequest): Promise<PackageConnection> {
  try {
    const answer = await apiRequest<MdsPackagesResponse>(PACKAGES_PATHS.packages, { method: 'POST', body })
    return answer.data.packages
  } catch {
    return EMPTY
  }
}

/** The list, page by page (the cursor of one page asks for the next). */
export const packagesQuery = (body: MdsRequest) =>
  infiniteQueryOptions({
    queryKey: ['packages', 'list', body],
    queryFn: ({ pageParam }) =>
      fetchPackages({
        ...body,
        graphQL: { ...body.graphQL, variables: { ...body.graphQL.variables, after: pageParam } },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => (page.pageInfo?.hasNextPage ? (page.pageInfo.endCursor ?? null) : null),
    staleTime: 10_000,
  })

/** The count-only call (§4): how many packages there are; null when it could not be computed. */
export async function fetchPackagesCount(body: MdsRequest): Promise<number | null> {
  try {
    const answer = await apiRequest<MdsPackagesResponse>(PACKAGES_PATHS.packages, { method: 'POST', body })
    return answer.data.packages.totalCount ?? null
  } catch {
    return null
  }
}

/**
 * POST /mds/package by pkgid; null when there is no such package (or it may not be read).
 * `fields` adds the selections the licence and features allow (licences, operational risk, §3).
 */
export async function fetchPackage(pkgid: string, fields = ''): Promise<PackageNode | null> {
  const query = fields ? PACKAGE_QUERY.replace(PACKAGE_FIELDS, `${PACKAGE_FIELDS} ${fields}`) : PACKAGE_QUERY
  const answer = await apiRequest<MdsPackageResponse>(PACKAGES_PATHS.package, {
    method: 'POST',
    body: { graphQL: { query, variables: { pkgid } } },
  })
  return answer.data.package
}
export const packageQuery = (pkgid: string, fields = '') =>
  queryOptions({ queryKey: ['packages', 'package', pkgid, fields], queryFn: () => fetchPackage(pkgid, fields), retry: false })

/** POST /mds/versions. §5: files are asked for only for docker packages. */
export async function fetchVersions(variables: VersionsVariables, includeFiles: boolean): Promise<VersionConnection> {
  const answer = await apiRequest<MdsVersionsResponse>(PACKAGES_PATHS.versions, {
    method: 'POST',
    body: { graphQL: { query: includeFiles ? VERSIONS_WITH_FILES_QUERY : VERSIONS_QUERY, variables } },
  })
  return answer.data.versions
}

export const versionsQuery = (variables: VersionsVariables, includeFiles: boolean) =>
  infiniteQueryOptions({
    queryKey: ['packages', 'versions', variables, includeFiles],
    queryFn: ({ pageParam }) => fetchVersions({ ...variables, after: pageParam }, includeFiles),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => (page.pageInfo?.hasNextPage ? (page.pageInfo.endCursor ?? null) : null),
  })

/** One version with its files (the version view needs the lead file, the digest and the file list). */
export async function fetchVersion(packageId: string, name: string): Promise<VersionNode | null> {
  const page = await fetchVersions({ filter: { packageId, name }, first: 1 }, true)
  return page.edges?.find((e) => e.node.name === name)?.node ?? null
}
export const versionQuery = (packageId: string, name: string) =>
  queryOptions({ queryKey: ['packages', 'version', packageId, name], queryFn: () => fetchVersion(packageId, name), retry: false })

// §8: readme, properties, builds and docker layers fall back to empty or null when their fetch fails.

export const readmeQuery = (versionId: string) =>
  queryOptions({
    queryKey: ['packages', 'readme', versionId],
    queryFn: () =>
      apiRequest<ReadmeResponse>(PACKAGES_PATHS.readme(versionId)).then(
        (r) => r.readme,
        () => null,
      ),
  })

export const dependenciesQuery = (versionId: string) =>
  queryOptions({
    queryKey: ['packages', 'dependencies', versionId],
    queryFn: () =>
      apiRequest<DependenciesResponse>(PACKAGES_PATHS.dependencies, { query: { id: versionId } }).then(
        (r) => r.dependencies,
        () => [],
      ),
  })

export const propertiesQuery = (versionId: string) =>
  queryOptions({
    queryKey: ['packages', 'properties', versionId],
    queryFn: () =>
      apiRequest<PropertiesResponse>(PACKAGES_PATHS.properties, { query: { id: versionId } }).then(
        (r) => r.properties,
        () => [],
      ),
  })

export const artifactBuildsQuery = (ref: ArtifactRef) =>
  queryOptions({
    queryKey: ['packages', 'builds', ref],
    queryFn: () =>
      apiRequest<ArtifactBuildsResponse>(PACKAGES_PATHS.artifactBuilds, { query: { ...ref } }).then(
        (r) => r,
        () => ({ producedBy: [], usedBy: [] }),
      ),
  })

export const dockerLayersQuery = (ref: ArtifactRef) =>
  queryOptions({
    queryKey: ['packages', 'dockerLayers', ref],
    queryFn: () =>
      apiRequest<DockerLayersResponse>(PACKAGES_PATHS.dockerLayers, {
        method: 'POST',
        body: { ...ref, view: 'dockerv2' },
      }).then(
        (r) => r,
        () => null,
      ),
  })

/** GET /ui/api/v1/download?repoKey=&path=: the file itself. */
export const downloadUrl = (ref: ArtifactRef) =>
  `${CONSOLE_API_BASE}${PACKAGES_PATHS.download}?${new URLSearchParams({ repoKey: ref.repoKey, path: ref.path })}`
