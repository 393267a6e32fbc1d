/**
 * A scanned version as a CycloneDX BOM (JSON, spec 1.5 or 1.6), built with the CycloneDX project's
 * own library: its models and its JSON normaliser keep the output within the schema of the
 * version asked for (a field 1.5 lacks is left out there), and order every list.
 */
import { randomUUID } from 'node:crypto'
import { Enums, Models, Serialize, SPDX, Spec } from '@cyclonedx/cyclonedx-library'
import {
  type CycloneDxVersion,
  type FileHashes,
  licenseExpression,
  licenseRefOf,
  type SbomLicense,
  type SbomSource,
} from './sbom.js'
import type { Severity } from './types.js'

const SPECS = { '1.5': Spec.Spec1dot5, '1.6': Spec.Spec1dot6 } as const

const SEVERITY: Record<Severity, Enums.Vulnerability.Severity> = {
  critical: Enums.Vulnerability.Severity.Critical,
  high: Enums.Vulnerability.Severity.High,
  medium: Enums.Vulnerability.Severity.Medium,
  low: Enums.Vulnerability.Severity.Low,
  unknown: Enums.Vulnerability.Severity.Unknown,
}

/** The rating method a CVSS vector's prefix names (a 2.0 vector has none). */
function ratingMethod(vector: string): Enums.Vulnerability.RatingMethod {
  if (vector.startsWith('CVSS:4.0/')) return Enums.Vulnerability.RatingMethod.CVSSv4
  if (vector.startsWith('CVSS:3.1/')) return Enums.Vulnerability.RatingMethod.CVSSv31
  if (vector.startsWith('CVSS:3.0/')) return Enums.Vulnerability.RatingMethod.CVSSv3
  return Enums.Vulnerability.RatingMethod.CVSSv2
}

/** Where an advisory id is read: CVEs at the NVD, GitHub's at GitHub, the rest (and the record Trove imported) at OSV. */
function sourceOf(id: string): Models.Vulnerability.Source {
  if (id.startsWith('CVE-'))
    return new Models.Vulnerability.Source({ name: 'NVD', url: `https://nvd.nist.gov/vuln/detail/${encodeURIComponent(id)}` })
  if (id.startsWith('GHSA-'))
    return new Models.Vulnerability.Source({ name: 'GitHub', url: `https://github.com/advisories/${encodeURIComponent(id)}` })
  return new Models.Vulnerability.Source({ name: 'OSV', url: `https://osv.dev/vulnerability/${encodeURIComponent(id)}` })
}

/**
 * Declared licences: SPDX ids the schema lists as ids, unknown names as named licences; when one
 * is an expression (or an id newer than the schema's list), all of them become one expression,
 * since the schema takes either licences or a single expression.
 */
function licensesOf(list: SbomLicense[]): Models.License[] {
  const simple = list.every((l) => l.spdx === null || SPDX.isSupportedSpdxId(l.spdx))
  if (simple) return list.map((l) => (l.spdx !== null ? new Models.SpdxLicense(l.spdx) : new Models.NamedLicense(l.name)))
  const expression = licenseExpression(list, licenseRefOf)
  return expression ? [new Models.LicenseExpression(expression)] : []
}

function component(
  type: Enums.ComponentType,
  c: { ref: string; name: string; version: string; purl: string; licenses: SbomLicense[]; hashes: FileHashes | null },
): Models.Component {
  const out = new Models.Component(type, c.name, { bomRef: c.ref, version: c.version, purl: c.purl })
  for (const l of licensesOf(c.licenses)) out.licenses.add(l)
  if (c.hashes) {
    out.hashes.set(Enums.HashAlgorithm.MD5, c.hashes.md5)
    out.hashes.set(Enums.HashAlgorithm['SHA-1'], c.hashes.sha1)
    out.hashes.set(Enums.HashAlgorithm['SHA-256'], c.hashes.sha256)
  }
  return out
}

/** The BOM as JSON text. `tool` names the producer (Trove and its version). */
export function cyclonedxDocument(source: SbomSource, specVersion: CycloneDxVersion, tool: { name: string; version: string }) {
  const { root } = source
  const main = component(root.packageType === 'docker' ? Enums.ComponentType.Container : Enums.ComponentType.Library, root)
  if (root.description) main.description = root.description

  const bom = new Models.Bom({ serialNumber: `urn:uuid:${randomUUID()}` })
  bom.metadata.timestamp = new Date()
  bom.metadata.component = main
  bom.metadata.tools.components.add(new Models.Component(Enums.ComponentType.Application, tool.name, { version: tool.version }))
  bom.metadata.properties.add(new Models.Property('trove:scannedAt', new Date(source.scannedAt).toISOString()))

  const byRef = new Map<string, Models.Component>([[root.ref, main]])
  if (source.os) {
    const os = new Models.Component(Enums.ComponentType.OperatingSystem, source.os.name, {
      bomRef: `os:${source.os.name}@${source.os.version}`,
      version: source.os.version,
    })
    bom.components.add(os)
    main.dependencies.add(os.bomRef)
  }
  for (const c of source.components) {
    const out = component(Enums.ComponentType.Library, c)
    for (const p of c.paths) out.properties.add(new Models.Property('trove:path', p))
    bom.components.add(out)
    byRef.set(c.ref, out)
    // A package depends on what its metadata names; an image's contents are listed, not depended on.
    if (source.relation === 'dependsOn') main.dependencies.add(out.bomRef)
  }

  for (const v of source.vulnerabilities) {
    const vulnerability = new Models.Vulnerability.Vulnerability({
      bomRef: `vulnerability:${v.id}`,
      id: v.id,
      source: sourceOf(v.id),
      description: v.summary || undefined,
      detail: v.details || undefined,
      published: v.published ? new Date(v.published) : undefined,
      updated: new Date(v.modified),
    })
    vulnerability.ratings.add(
      new Models.Vulnerability.Rating({
        severity: SEVERITY[v.severity],
        ...(v.cvssScore !== null ? { score: v.cvssScore } : {}),
        ...(v.cvssVector ? { vector: v.cvssVector, method: ratingMethod(v.cvssVector) } : {}),
      }),
    )
    for (const alias of v.aliases) vulnerability.references.add(new Models.Vulnerability.Reference(alias, sourceOf(alias)))
    for (const r of v.references)
      if (r.type === 'ADVISORY') vulnerability.advisories.add(new Models.Vulnerability.Advisory(r.url))
    const fixes: string[] = []
    for (const a of v.affects) {
      const target = byRef.get(a.ref)
      if (!target) continue
      const versions = new Models.Vulnerability.AffectedVersionRepository([
        new Models.Vulnerability.AffectedSingleVersion(a.version, { status: Enums.Vulnerability.AffectStatus.Affected }),
        ...a.fixed.map(
          (f) => new Models.Vulnerability.AffectedSingleVersion(f, { status: Enums.Vulnerability.AffectStatus.Unaffected }),
        ),
      ])
      vulnerability.affects.add(new Models.Vulnerability.Affect(target.bomRef, { versions }))
      if (a.fixed.length > 0) fixes.push(`${target.name} to ${a.fixed.join(' or ')}`)
    }
    vulnerability.recommendation = fixes.length > 0 ? `Upgrade ${fixes.join('; ')}` : 'No fixed version is known'
    bom.vulnerabilities.add(vulnerability)
  }

  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(SPECS[specVersion]))
  return serializer.serialize(bom, { sortLists: true, space: 2 })
}
