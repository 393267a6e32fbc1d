import { compareVersions, parseVersion } from './nupkg.js'
import type { NuGetEntry } from './repository.js'

/**
 * The NuGet v2 feed (OData v2 over Atom), as NuGet 2.x clients (Debian's mono `nuget`) read it:
 * the service document, `$metadata`, and feeds of `V2FeedPackage` entries. `base` is the feed's
 * root (`<trove>/api/nuget/<repo>`).
 */

const esc = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;')
// Only characters XML 1.0 allows (a nuspec may carry others escaped).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const text = (s: string) => esc(s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''))

export const XML_TYPE = 'application/xml; charset=utf-8'
export const ATOM_TYPE = 'application/atom+xml;type=feed;charset=utf-8'
export const ENTRY_TYPE = 'application/atom+xml;type=entry;charset=utf-8'

export function serviceDocument(base: string): string {
  return `<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<service xml:base="${esc(base)}/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:app="http://www.w3.org/2007/app" xmlns="http://www.w3.org/2007/app">
  <workspace>
    <atom:title>Default</atom:title>
    <collection href="Packages"><atom:title>Packages</atom:title></collection>
  </workspace>
</service>
`
}

const PROPERTIES: [string, string][] = [
  ['Id', 'Edm.String'],
  ['Version', 'Edm.String'],
  ['NormalizedVersion', 'Edm.String'],
  ['Authors', 'Edm.String'],
  ['Copyright', 'Edm.String'],
  ['Created', 'Edm.DateTime'],
  ['Dependencies', 'Edm.String'],
  ['Description', 'Edm.String'],
  ['DownloadCount', 'Edm.Int32'],
  ['GalleryDetailsUrl', 'Edm.String'],
  ['IconUrl', 'Edm.String'],
  ['IsLatestVersion', 'Edm.Boolean'],
  ['IsAbsoluteLatestVersion', 'Edm.Boolean'],
  ['IsPrerelease', 'Edm.Boolean'],
  ['Language', 'Edm.String'],
  ['LastUpdated', 'Edm.DateTime'],
  ['Published', 'Edm.DateTime'],
  ['PackageHash', 'Edm.String'],
  ['PackageHashAlgorithm', 'Edm.String'],
  ['PackageSize', 'Edm.Int64'],
  ['ProjectUrl', 'Edm.String'],
  ['ReportAbuseUrl', 'Edm.String'],
  ['ReleaseNotes', 'Edm.String'],
  ['RequireLicenseAcceptance', 'Edm.Boolean'],
  ['Summary', 'Edm.String'],
  ['Tags', 'Edm.String'],
  ['Title', 'Edm.String'],
  ['VersionDownloadCount', 'Edm.Int32'],
  ['MinClientVersion', 'Edm.String'],
  ['LastEdited', 'Edm.DateTime'],
  ['LicenseUrl', 'Edm.String'],
  ['LicenseNames', 'Edm.String'],
  ['LicenseReportUrl', 'Edm.String'],
]

/** `$metadata`: the one entity type and the service methods the client asks for by name. */
export function metadataDocument(): string {
  const props = PROPERTIES.map(([name, type]) => {
    const nullable = name === 'Id' || name === 'Version' || type !== 'Edm.String' ? 'false' : 'true'
    return `        <Property Name="${name}" Type="${type}" Nullable="${nullable}" />`
  }).join('\n')
  const packages = 'ReturnType="Collection(NuGetGallery.V2FeedPackage)" EntitySet="Packages" m:HttpMethod="GET"'
  return `<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx">
  <edmx:DataServices xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" m:DataServiceVersion="2.0">
    <Schema Namespace="NuGetGallery" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://schemas.microsoft.com/ado/2006/04/edm">
      <EntityType Name="V2FeedPackage" m:HasStream="true">
        <Key><PropertyRef Name="Id" /><PropertyRef Name="Version" /></Key>
${props}
      </EntityType>
      <EntityContainer Name="FeedContext_x0060_1" m:IsDefaultEntityContainer="true">
        <EntitySet Name="Packages" EntityType="NuGetGallery.V2FeedPackage" />
        <FunctionImport Name="Search" ${packages}>
          <Parameter Name="searchTerm" Type="Edm.String" Mode="In" />
          <Parameter Name="targetFramework" Type="Edm.String" Mode="In" />
          <Parameter Name="includePrerelease" Type="Edm.Boolean" Mode="In" />
        </FunctionImport>
        <FunctionImport Name="FindPackagesById" ${packages}>
          <Parameter Name="id" Type="Edm.String" Mode="In" />
        </FunctionImport>
        <FunctionImport Name="GetUpdates" ${packages}>
          <Parameter Name="packageIds" Type="Edm.String" Mode="In" />
          <Parameter Name="versions" Type="Edm.String" Mode="In" />
          <Parameter Name="includePrerelease" Type="Edm.Boolean" Mode="In" />
          <Parameter Name="includeAllVersions" Type="Edm.Boolean" Mode="In" />
          <Parameter Name="targetFrameworks" Type="Edm.String" Mode="In" />
          <Parameter Name="versionConstraints" Type="Edm.String" Mode="In" />
        </FunctionImport>
      </EntityContainer>
    </Schema>
  </edmx:DataServices>
</edmx:Edmx>
`
}

/** An entry's flags against the other versions of its package: the newest release, the newest of all. */
export interface Latest {
  release: boolean
  absolute: boolean
}

/** Marks, per package id, its newest release and newest version. */
export function latestFlags(entries: NuGetEntry[]): Map<NuGetEntry, Latest> {
  const byId = new Map<string, NuGetEntry[]>()
  for (const e of entries) {
    const k = e.nuspec.id.toLowerCase()
    byId.set(k, [...(byId.get(k) ?? []), e])
  }
  const flags = new Map<NuGetEntry, Latest>()
  for (const list of byId.values()) {
    const sorted = [...list].sort((a, b) => compareVersions(a.nuspec.version, b.nuspec.version))
    const absolute = sorted[sorted.length - 1]
    const release = [...sorted].reverse().find((e) => !parseVersion(e.nuspec.version)?.prerelease)
    for (const e of list) flags.set(e, { release: e === release, absolute: e === absolute })
  }
  return flags
}

const date = (ms: number) => new Date(ms).toISOString().replace('Z', '')
const prop = (name: string, value: string | number | boolean | null, type?: string) => {
  if (value === null || value === '') return `<d:${name} m:null="true" />`
  const t = type ? ` m:type="${type}"` : ''
  return `<d:${name}${t}>${text(String(value))}</d:${name}>`
}

/** A version's dependencies as v2 writes them: `id:range:framework|…` (an empty group as `::framework`). */
export function dependenciesString(e: NuGetEntry): string {
  return e.nuspec.dependencyGroups
    .flatMap((g) =>
      g.dependencies.length === 0
        ? [`::${g.targetFramework}`]
        : g.dependencies.map((d) => `${d.id}:${d.range}:${g.targetFramework}`),
    )
    .join('|')
}

function entryXml(base: string, e: NuGetEntry, latest: Latest): string {
  const n = e.nuspec
  const self = `${base}/Packages(Id='${esc(n.id)}',Version='${esc(n.version)}')`
  const updated = new Date(e.published).toISOString()
  return `  <entry>
    <id>${self}</id>
    <category term="NuGetGallery.V2FeedPackage" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme" />
    <link rel="edit" title="V2FeedPackage" href="Packages(Id='${esc(n.id)}',Version='${esc(n.version)}')" />
    <title type="text">${text(n.id)}</title>
    <summary type="text">${text(n.summary)}</summary>
    <updated>${updated}</updated>
    <author><name>${text(n.authors)}</name></author>
    <link rel="edit-media" title="V2FeedPackage" href="Packages(Id='${esc(n.id)}',Version='${esc(n.version)}')/$value" />
    <content type="application/zip" src="${base}/package/${esc(n.id)}/${esc(n.version)}" />
    <m:properties>
      ${[
        prop('Version', n.fullVersion || n.version),
        prop('NormalizedVersion', n.version),
        prop('Copyright', n.copyright),
        prop('Created', date(e.published), 'Edm.DateTime'),
        prop('Dependencies', dependenciesString(e)),
        prop('Description', n.description),
        prop('DownloadCount', e.downloads, 'Edm.Int32'),
        prop('GalleryDetailsUrl', null),
        prop('IconUrl', n.iconUrl),
        prop('IsLatestVersion', latest.release, 'Edm.Boolean'),
        prop('IsAbsoluteLatestVersion', latest.absolute, 'Edm.Boolean'),
        prop('IsPrerelease', parseVersion(n.version)?.prerelease ?? false, 'Edm.Boolean'),
        prop('Language', null),
        prop('Published', date(e.published), 'Edm.DateTime'),
        prop('LastEdited', date(e.published), 'Edm.DateTime'),
        prop('PackageHash', e.sha512),
        prop('PackageHashAlgorithm', 'SHA512'),
        prop('PackageSize', e.size, 'Edm.Int64'),
        prop('ProjectUrl', n.projectUrl),
        prop('ReportAbuseUrl', null),
        prop('ReleaseNotes', n.releaseNotes),
        prop('RequireLicenseAcceptance', n.requireLicenseAcceptance, 'Edm.Boolean'),
        prop('Tags', n.tags.join(' ')),
        prop('Title', n.title),
        prop('VersionDownloadCount', e.downloads, 'Edm.Int32'),
        prop('MinClientVersion', null),
        prop('LicenseUrl', n.licenseUrl),
        prop('LicenseNames', n.licenseExpression),
        prop('LicenseReportUrl', null),
      ].join('\n      ')}
    </m:properties>
  </entry>
`
}

const NAMESPACES =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"'

/** A feed of entries; `next` is the URL of the next page when there is one. */
export function feed(
  base: string,
  title: string,
  entries: NuGetEntry[],
  flags: Map<NuGetEntry, Latest>,
  options: { count?: number; next?: string } = {},
): string {
  const none = { release: false, absolute: false }
  return `<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<feed xml:base="${esc(base)}/" ${NAMESPACES}>
  <title type="text">${esc(title)}</title>
  <id>${esc(base)}/${esc(title)}</id>
  <updated>${new Date().toISOString()}</updated>
  <link rel="self" title="${esc(title)}" href="${esc(title)}" />
${options.count === undefined ? '' : `  <m:count>${options.count}</m:count>\n`}${entries.map((e) => entryXml(base, e, flags.get(e) ?? none)).join('')}${
  options.next ? `  <link rel="next" href="${esc(options.next)}" />\n` : ''
}</feed>
`
}

/** One entry as its own document (`Packages(Id='…',Version='…')`). */
export function entryDocument(base: string, e: NuGetEntry, latest: Latest): string {
  return `<?xml version="1.0" encoding="utf-8" standalone="yes"?>
${entryXml(base, e, latest).replace('<entry>', `<entry xml:base="${esc(base)}/" ${NAMESPACES}>`)}`
}
