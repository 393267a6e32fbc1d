/**
 * A scanned version as an SPDX 2.3 document (JSON). No maintained npm library writes SPDX 2.3, so
 * the document is written here from the specification: one package for the version (DESCRIBES),
 * one per component (DEPENDS_ON for a package's dependencies, CONTAINS for an image's contents),
 * licences as SPDX expressions with `LicenseRef-` entries for names SPDX has no id for, and each
 * advisory as a SECURITY reference of the package it affects.
 */
import { type FileHashes, licenseExpression, licenseRefOf, type SbomLicense, type SbomSource, uuidOf } from './sbom.js'

export interface SpdxPackage {
  SPDXID: string
  name: string
  versionInfo: string
  downloadLocation: string
  filesAnalyzed: false
  licenseConcluded: string
  licenseDeclared: string
  copyrightText: string
  primaryPackagePurpose?: string
  description?: string
  checksums?: { algorithm: string; checksumValue: string }[]
  externalRefs?: { referenceCategory: string; referenceType: string; referenceLocator: string }[]
  comment?: string
}

export interface SpdxDocument {
  spdxVersion: 'SPDX-2.3'
  dataLicense: 'CC0-1.0'
  SPDXID: 'SPDXRef-DOCUMENT'
  name: string
  documentNamespace: string
  creationInfo: { created: string; creators: string[] }
  documentDescribes: string[]
  packages: SpdxPackage[]
  hasExtractedLicensingInfos?: { licenseId: string; name: string; extractedText: string }[]
  relationships: { spdxElementId: string; relationshipType: string; relatedSpdxElement: string }[]
}

const checksums = (hashes: FileHashes | null) =>
  hashes
    ? {
        checksums: [
          { algorithm: 'SHA256', checksumValue: hashes.sha256 },
          { algorithm: 'SHA1', checksumValue: hashes.sha1 },
          { algorithm: 'MD5', checksumValue: hashes.md5 },
        ],
      }
    : {}

/** An SPDX element id: "SPDXRef-" then letters, digits, "." and "-" only. */
const elementId = (kind: string, n: number, name: string) =>
  `SPDXRef-${kind}-${n}-${name.replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 80)}`

/** SPDX dates are to the second, in UTC. */
const spdxDate = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`

/**
 * The document. Its namespace is `namespaceBase` and a UUID-shaped digest of its own contents:
 * the same scan exports the same document, a re-scan or a re-evaluated finding a new namespace.
 */
export function spdxDocument(source: SbomSource, namespaceBase: string, tool: { name: string; version: string }): SpdxDocument {
  const { root } = source
  const extracted = new Map<string, string>()
  const refOf = (name: string) => {
    const id = licenseRefOf(name)
    extracted.set(id, name)
    return id
  }
  const declared = (list: SbomLicense[]) => licenseExpression(list, refOf) ?? 'NOASSERTION'
  const advisoriesOf = new Map<string, string[]>()
  for (const v of source.vulnerabilities)
    for (const a of v.affects) advisoriesOf.set(a.ref, [...(advisoriesOf.get(a.ref) ?? []), v.id])
  const externalRefs = (ref: string, purl: string) => [
    { referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: purl },
    ...(advisoriesOf.get(ref) ?? []).map((id) => ({
      referenceCategory: 'SECURITY',
      referenceType: 'advisory',
      referenceLocator: `https://osv.dev/vulnerability/${encodeURIComponent(id)}`,
    })),
  ]

  const rootId = elementId('Package', 0, root.name)
  const main: SpdxPackage = {
    SPDXID: rootId,
    name: root.name,
    versionInfo: root.version,
    downloadLocation: 'NOASSERTION',
    filesAnalyzed: false,
    licenseConcluded: 'NOASSERTION',
    licenseDeclared: declared(root.licenses),
    copyrightText: 'NOASSERTION',
    primaryPackagePurpose: root.packageType === 'docker' ? 'CONTAINER' : 'LIBRARY',
    externalRefs: externalRefs(root.ref, root.purl),
    ...(root.description ? { description: root.description } : {}),
    ...checksums(root.hashes),
  }
  const packages: SpdxPackage[] = [main]
  const relationships: SpdxDocument['relationships'] = [
    { spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: rootId },
  ]
  const relate = (id: string) =>
    relationships.push({
      spdxElementId: rootId,
      relationshipType: source.relation === 'dependsOn' ? 'DEPENDS_ON' : 'CONTAINS',
      relatedSpdxElement: id,
    })
  if (source.os) {
    const id = elementId('OperatingSystem', 0, source.os.name)
    packages.push({
      SPDXID: id,
      name: source.os.name,
      versionInfo: source.os.version,
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: 'NOASSERTION',
      copyrightText: 'NOASSERTION',
      primaryPackagePurpose: 'OPERATING-SYSTEM',
    })
    relate(id)
  }
  for (const [i, c] of source.components.entries()) {
    const id = elementId('Package', i + 1, c.name)
    packages.push({
      SPDXID: id,
      name: c.name,
      versionInfo: c.version,
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: declared(c.licenses),
      copyrightText: 'NOASSERTION',
      primaryPackagePurpose: 'LIBRARY',
      externalRefs: externalRefs(c.ref, c.purl),
      ...checksums(c.hashes),
      ...(c.paths.length > 0 ? { comment: `Found in: ${c.paths.join(', ')}` } : {}),
    })
    relate(id)
  }

  const head = {
    spdxVersion: 'SPDX-2.3' as const,
    dataLicense: 'CC0-1.0' as const,
    SPDXID: 'SPDXRef-DOCUMENT' as const,
    name: `${root.name}@${root.version}`,
  }
  const body = {
    creationInfo: { created: spdxDate(source.scannedAt), creators: [`Tool: ${tool.name}-${tool.version}`] },
    documentDescribes: [rootId],
    packages,
    ...(extracted.size > 0
      ? {
          hasExtractedLicensingInfos: [...extracted].map(([licenseId, name]) => ({
            licenseId,
            name,
            extractedText: `The package declares the licence "${name}", which has no SPDX identifier.`,
          })),
        }
      : {}),
    relationships,
  }
  const digest = uuidOf(JSON.stringify({ head, body }))
  const slug = `${root.name}-${root.version}`.replace(/[^A-Za-z0-9._-]+/g, '-')
  return { ...head, documentNamespace: `${namespaceBase}/${slug}-${digest}`, ...body }
}
