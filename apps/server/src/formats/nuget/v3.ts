import { compareVersions, parseVersion } from './nupkg.js'
import type { NuGetEntry } from './repository.js'

/**
 * The NuGet v3 protocol's documents (https://learn.microsoft.com/nuget/api/overview), for one
 * repository whose v3 base is `base` (`<trove>/api/nuget/v3/<repo>`).
 */

/** The service index: where each resource a client looks for lives. */
export function serviceIndex(base: string) {
  const resource = (path: string, type: string, comment: string) => ({ '@id': `${base}/${path}`, '@type': type, comment })
  return {
    version: '3.0.0',
    resources: [
      resource('flatcontainer/', 'PackageBaseAddress/3.0.0', 'Package contents (.nupkg, .nuspec, version lists)'),
      ...[
        'RegistrationsBaseUrl',
        'RegistrationsBaseUrl/3.0.0-rc',
        'RegistrationsBaseUrl/3.0.0-beta',
        'RegistrationsBaseUrl/3.4.0',
        'RegistrationsBaseUrl/3.6.0',
      ].map((type) => resource('registration/', type, 'Package metadata, SemVer 2.0.0 versions included')),
      ...['SearchQueryService', 'SearchQueryService/3.0.0-rc', 'SearchQueryService/3.0.0-beta', 'SearchQueryService/3.5.0'].map(
        (type) => resource('query', type, 'Search'),
      ),
      resource('package', 'PackagePublish/2.0.0', 'Push and delete'),
    ],
  }
}

const sorted = (entries: NuGetEntry[]) => [...entries].sort((a, b) => compareVersions(a.nuspec.version, b.nuspec.version))

/** The flat container's version list: lower-case normalised versions, oldest first. */
export const versionList = (entries: NuGetEntry[]) => ({
  versions: sorted(entries).map((e) => e.nuspec.version.toLowerCase()),
})

const nupkgUrl = (base: string, id: string, version: string) => {
  const i = id.toLowerCase()
  const v = version.toLowerCase()
  return `${base}/flatcontainer/${i}/${v}/${i}.${v}.nupkg`
}
const registrationIndexUrl = (base: string, id: string) => `${base}/registration/${id.toLowerCase()}/index.json`
const leafUrl = (base: string, id: string, version: string) =>
  `${base}/registration/${id.toLowerCase()}/${version.toLowerCase()}.json`

/** A version's catalog entry, as a registration leaf inlines it. */
function catalogEntry(base: string, e: NuGetEntry) {
  const n = e.nuspec
  return {
    '@id': `${leafUrl(base, n.id, n.version)}#catalogEntry`,
    '@type': 'PackageDetails',
    id: n.id,
    version: n.fullVersion || n.version,
    title: n.title,
    description: n.description,
    summary: n.summary,
    authors: n.authors,
    owners: n.owners,
    tags: n.tags,
    projectUrl: n.projectUrl,
    iconUrl: n.iconUrl,
    licenseUrl: n.licenseUrl,
    licenseExpression: n.licenseExpression,
    requireLicenseAcceptance: n.requireLicenseAcceptance,
    releaseNotes: n.releaseNotes,
    copyright: n.copyright,
    listed: true,
    published: new Date(e.published).toISOString(),
    packageContent: nupkgUrl(base, n.id, n.version),
    dependencyGroups: n.dependencyGroups.map((g) => ({
      '@id': `${leafUrl(base, n.id, n.version)}#dependencygroup/${g.targetFramework.toLowerCase()}`,
      '@type': 'PackageDependencyGroup',
      ...(g.targetFramework ? { targetFramework: g.targetFramework } : {}),
      dependencies: g.dependencies.map((d) => ({
        '@id': `${leafUrl(base, n.id, n.version)}#dependencygroup/${g.targetFramework.toLowerCase()}/${d.id.toLowerCase()}`,
        '@type': 'PackageDependency',
        id: d.id,
        range: d.range || '(, )',
        registration: registrationIndexUrl(base, d.id),
      })),
    })),
  }
}

/** A registration leaf: one version, with its catalog entry and where its .nupkg is. */
export function registrationLeaf(base: string, e: NuGetEntry) {
  return {
    '@id': leafUrl(base, e.nuspec.id, e.nuspec.version),
    '@type': ['Package', 'http://schema.nuget.org/catalog#Permalink'],
    catalogEntry: catalogEntry(base, e),
    listed: true,
    packageContent: nupkgUrl(base, e.nuspec.id, e.nuspec.version),
    published: new Date(e.published).toISOString(),
    registration: registrationIndexUrl(base, e.nuspec.id),
  }
}

/** The registration index of a package: one page holding every version, inlined. */
export function registrationIndex(base: string, id: string, entries: NuGetEntry[]) {
  const all = sorted(entries)
  const index = registrationIndexUrl(base, id)
  const lower = all[0]?.nuspec.version.toLowerCase() ?? ''
  const upper = all[all.length - 1]?.nuspec.version.toLowerCase() ?? ''
  return {
    '@id': index,
    '@type': ['catalog:CatalogRoot', 'PackageRegistration', 'catalog:Permalink'],
    count: 1,
    items: [
      {
        '@id': `${index}#page/${lower}/${upper}`,
        '@type': 'catalog:CatalogPage',
        count: all.length,
        lower,
        upper,
        parent: index,
        items: all.map((e) => ({
          '@id': leafUrl(base, e.nuspec.id, e.nuspec.version),
          '@type': 'Package',
          catalogEntry: catalogEntry(base, e),
          packageContent: nupkgUrl(base, e.nuspec.id, e.nuspec.version),
          registration: index,
        })),
      },
    ],
  }
}

/** The search answer: per package its newest version's metadata and every version. */
export function searchResults(base: string, found: NuGetEntry[][], totalHits: number) {
  return {
    totalHits,
    data: found.map((versions) => {
      const latest = versions[versions.length - 1] as NuGetEntry
      const n = latest.nuspec
      return {
        '@id': registrationIndexUrl(base, n.id),
        '@type': 'Package',
        registration: registrationIndexUrl(base, n.id),
        id: n.id,
        version: n.fullVersion || n.version,
        description: n.description,
        summary: n.summary,
        title: n.title || n.id,
        iconUrl: n.iconUrl,
        licenseUrl: n.licenseUrl,
        projectUrl: n.projectUrl,
        tags: n.tags,
        authors: n.authors ? n.authors.split(/\s*,\s*/) : [],
        owners: n.owners ? n.owners.split(/\s*,\s*/) : [],
        totalDownloads: versions.reduce((sum, v) => sum + v.downloads, 0),
        verified: false,
        packageTypes: [{ name: 'Dependency' }],
        versions: versions.map((v) => ({
          version: v.nuspec.fullVersion || v.nuspec.version,
          downloads: v.downloads,
          '@id': leafUrl(base, v.nuspec.id, v.nuspec.version),
        })),
      }
    }),
  }
}

export const isPrerelease = (version: string) => parseVersion(version)?.prerelease ?? false
