/**
 * Reads one OSV record (https://ossf.github.io/osv-schema/) into an Advisory: validates its
 * shape, keeps the `affected[]` entries of the ecosystems Trove scans (others are dropped, not
 * refused), and rates it from the highest CVSS base score among its vectors, else from the
 * database's own label, else "unknown".
 */
import { z } from 'zod'
import { cvssBaseScore, isCvssType, severityOfLabel, severityOfScore } from './cvss.js'
import { normalizeName, parseEcosystem } from './ecosystems.js'
import { type Advisory, type AffectedPackage, type AffectedRange, SEVERITIES, type Severity } from './types.js'

/** A record Trove cannot read, naming the record, where it came from and the field at fault. */
export class OsvError extends Error {
  constructor(
    /** The record's id, or where it came from when it has none. */
    readonly record: string,
    /** The path of the field at fault, e.g. `affected[0].ranges[0].events[1]`. */
    readonly field: string,
    message: string,
  ) {
    super(message)
    this.name = 'OsvError'
  }
}

const EVENT_KEYS = ['introduced', 'fixed', 'last_affected', 'limit'] as const
const EXACTLY_ONE = `expected exactly one of ${EVENT_KEYS.join(', ')}`

const freeObject = z.record(z.string(), z.unknown())
const strings = z.array(z.string())
const severityItem = z.object({ type: z.string(), score: z.string() })

const eventSchema = z.record(z.string(), z.unknown()).superRefine((event, ctx) => {
  const keys = Object.keys(event)
  const key = keys[0]
  if (keys.length !== 1 || !(EVENT_KEYS as readonly string[]).includes(key as string)) {
    ctx.addIssue({ code: 'custom', message: EXACTLY_ONE })
  } else if (typeof event[key as string] !== 'string' || event[key as string] === '') {
    ctx.addIssue({ code: 'custom', message: `${key} must be a non-empty version string`, path: [key as string] })
  }
})

const rangeSchema = z.object({
  type: z.enum(['SEMVER', 'ECOSYSTEM', 'GIT']),
  repo: z.string().nullish(),
  events: z.array(eventSchema).min(1),
  database_specific: freeObject.nullish(),
})

const affectedSchema = z.object({
  // OSV allows an entry without a package (GIT ranges only); nothing in Trove can match it.
  package: z.object({ ecosystem: z.string(), name: z.string().min(1), purl: z.string().nullish() }).nullish(),
  severity: z.array(severityItem).nullish(),
  ranges: z.array(rangeSchema).nullish(),
  versions: strings.nullish(),
  ecosystem_specific: freeObject.nullish(),
  database_specific: freeObject.nullish(),
})

const recordSchema = z.object({
  schema_version: z.string().nullish(),
  id: z.string().min(1),
  modified: z.string().min(1),
  published: z.string().nullish(),
  withdrawn: z.string().nullish(),
  aliases: strings.nullish(),
  related: strings.nullish(),
  upstream: strings.nullish(),
  summary: z.string().nullish(),
  details: z.string().nullish(),
  severity: z.array(severityItem).nullish(),
  affected: z.array(affectedSchema).nullish(),
  references: z.array(z.object({ type: z.string(), url: z.string() })).nullish(),
  database_specific: freeObject.nullish(),
})

type OsvRecord = z.infer<typeof recordSchema>

/** `['affected', 0, 'ranges', 1]` → `affected[0].ranges[1]`. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`
  return out || 'record'
}

function toEvent(event: Record<string, unknown>): AffectedRange['events'][number] {
  const [key, value] = Object.entries(event)[0] as [(typeof EVENT_KEYS)[number], string]
  return { [key]: value } as AffectedRange['events'][number]
}

function toAffected(entry: NonNullable<OsvRecord['affected']>[number]): AffectedPackage | null {
  const ecosystem = entry.package ? parseEcosystem(entry.package.ecosystem) : null
  if (!entry.package || !ecosystem) return null
  return {
    ecosystem: ecosystem.ecosystem,
    release: ecosystem.release,
    name: normalizeName(ecosystem.ecosystem, entry.package.name),
    ranges: (entry.ranges ?? []).map((range) => ({ type: range.type, events: range.events.map(toEvent) })),
    versions: entry.versions ?? [],
  }
}

const rank = (severity: Severity) => SEVERITIES.indexOf(severity)
const worse = (a: Severity, b: Severity) => (rank(a) <= rank(b) ? a : b)

/** The highest CVSS base score (throwing on a bad vector), else the highest database label, else unknown. */
function rate(record: OsvRecord, fail: (field: string, message: string) => never) {
  let best: { score: number; vector: string } | null = null
  const score = (items: OsvRecord['severity'], at: string) => {
    for (const [i, item] of (items ?? []).entries()) {
      if (!isCvssType(item.type)) continue
      let base: number
      try {
        base = cvssBaseScore(item.type, item.score)
      } catch (error) {
        fail(`${at}[${i}].score`, `${item.type} ${JSON.stringify(item.score)}: ${(error as Error).message}`)
      }
      if (!best || base > best.score) best = { score: base, vector: item.score }
    }
  }
  score(record.severity, 'severity')
  for (const [i, entry] of (record.affected ?? []).entries()) score(entry.severity, `affected[${i}].severity`)

  const found = best as { score: number; vector: string } | null
  if (found && found.score > 0)
    return { severity: severityOfScore(found.score), cvssScore: found.score, cvssVector: found.vector }
  let label: Severity = 'unknown'
  const labels = [
    record.database_specific?.severity,
    ...(record.affected ?? []).flatMap((entry) => [entry.ecosystem_specific?.severity, entry.database_specific?.severity]),
  ]
  for (const text of labels) {
    const severity = severityOfLabel(text)
    if (severity) label = worse(label, severity)
  }
  return { severity: label, cvssScore: found?.score ?? null, cvssVector: found?.vector ?? null }
}

/**
 * Parses one OSV record. `where` says where it came from (a file or archive entry name) for
 * error messages. Throws OsvError, naming the record and the field, when it is not a valid record.
 */
export function parseOsvRecord(json: unknown, where: string): Advisory {
  const rawId = json && typeof json === 'object' && 'id' in json && typeof json.id === 'string' && json.id ? json.id : null
  const label = rawId ? `${rawId} (${where})` : where
  const fail = (field: string, message: string): never => {
    throw new OsvError(rawId ?? where, field, `${label}: ${field}: ${message}`)
  }
  const parsed = recordSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    fail(fieldPath(issue?.path ?? []), issue?.message ?? 'not an OSV record')
  }
  const record = parsed.data as OsvRecord
  return {
    id: record.id,
    modified: record.modified,
    published: record.published ?? null,
    withdrawn: record.withdrawn ?? null,
    aliases: record.aliases ?? [],
    upstream: record.upstream ?? [],
    related: record.related ?? [],
    summary: record.summary ?? '',
    details: record.details ?? '',
    ...rate(record, fail),
    references: record.references ?? [],
    affected: (record.affected ?? []).map(toAffected).filter((entry): entry is AffectedPackage => entry !== null),
  }
}
