import type { FastifyRequest } from 'fastify'
import semver from 'semver'
import { HttpError } from '../../core/errors.js'
import type { FormatContext, NpmBulkAdvisory } from '../kit/types.js'

/** At most this many package names in one audit request (a large monorepo has a few thousand). */
const MAX_NAMES = 20_000

/** Where an advisory is read: its own advisory link when it has one, else the console's search for it. */
const linkOf = (fctx: FormatContext, request: FastifyRequest) => (id: string, refs: { type: string; url: string }[]) =>
  refs.find((r) => r.type === 'ADVISORY')?.url ??
  refs.find((r) => r.type === 'WEB')?.url ??
  `${fctx.baseUrl(request)}/ui/packages?cve=${encodeURIComponent(id)}`

/**
 * POST /-/npm/v1/security/advisories/bulk: npm audit sends { name: [versions] } and gets, per
 * name, the advisories affecting one of them, answered from Trove's own advisory database.
 */
export async function bulkAudit(
  fctx: FormatContext,
  request: FastifyRequest,
  body: unknown,
): Promise<Record<string, NpmBulkAdvisory[]>> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, 'Expected { "<package>": ["<version>", …] }')
  const entries = Object.entries(body as Record<string, unknown>)
  if (entries.length > MAX_NAMES) throw new HttpError(400, `At most ${MAX_NAMES} packages in one audit`)
  const asked: Record<string, string[]> = {}
  for (const [name, versions] of entries) {
    if (!Array.isArray(versions) || versions.some((v) => typeof v !== 'string'))
      throw new HttpError(400, `${name}: expected an array of version strings`)
    asked[name] = versions as string[]
  }
  return fctx.advisories.npmBulk(asked, linkOf(fctx, request))
}

interface QuickDependency {
  version?: string
  dev?: boolean
  dependencies?: Record<string, QuickDependency>
}

/**
 * POST /-/npm/v1/security/audits/quick: the older audit request (a tree of dependencies with
 * versions), answered in that request's report shape: advisories by number with their findings
 * (version and paths) and counts by severity.
 */
export async function quickAudit(fctx: FormatContext, request: FastifyRequest, body: unknown) {
  const tree = (body ?? {}) as { dependencies?: Record<string, QuickDependency> }
  if (typeof tree !== 'object' || (tree.dependencies !== undefined && typeof tree.dependencies !== 'object'))
    throw new HttpError(400, 'Expected an audit request with dependencies')
  const paths = new Map<string, Map<string, string[]>>()
  let count = 0
  let dev = 0
  const walk = (deps: Record<string, QuickDependency> | undefined, prefix: string, depth: number) => {
    if (!deps || depth > 64) return
    for (const [name, d] of Object.entries(deps)) {
      if (++count > MAX_NAMES) throw new HttpError(400, `At most ${MAX_NAMES} dependencies in one audit`)
      if (d?.dev) dev++
      const here = prefix ? `${prefix}>${name}` : name
      if (typeof d?.version === 'string') {
        const byVersion = paths.get(name) ?? new Map<string, string[]>()
        byVersion.set(d.version, [...(byVersion.get(d.version) ?? []), here])
        paths.set(name, byVersion)
      }
      walk(d?.dependencies, here, depth + 1)
    }
  }
  walk(tree.dependencies, '', 0)
  const asked = Object.fromEntries([...paths].map(([name, versions]) => [name, [...versions.keys()]]))
  const found = await fctx.advisories.npmBulk(asked, linkOf(fctx, request))
  const advisories: Record<string, unknown> = {}
  const vulnerabilities = { info: 0, low: 0, moderate: 0, high: 0, critical: 0 }
  for (const [name, list] of Object.entries(found)) {
    for (const a of list) {
      const findings = [...(paths.get(name) ?? [])]
        .filter(([version]) => semver.satisfies(version, a.vulnerable_versions, { includePrerelease: true }))
        .map(([version, p]) => ({ version, paths: p }))
      vulnerabilities[a.severity] += findings.reduce((n, f) => n + f.paths.length, 0)
      advisories[String(a.id)] = {
        id: a.id,
        title: a.title,
        module_name: name,
        vulnerable_versions: a.vulnerable_versions,
        severity: a.severity,
        url: a.url,
        cwe: a.cwe,
        cvss: a.cvss,
        findings,
      }
    }
  }
  return {
    actions: [],
    advisories,
    muted: [],
    metadata: {
      vulnerabilities,
      dependencies: count - dev,
      devDependencies: dev,
      optionalDependencies: 0,
      totalDependencies: count,
    },
  }
}
