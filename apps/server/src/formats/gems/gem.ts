import zlib from 'node:zlib'
import YAML from 'yaml'
import { HttpError } from '../../core/errors.js'
import { readTarGz } from '../kit/archive.js'
import { marshal, RubyHash, RubyObject, RubyUserDump, RubyUserMarshal, type RubyValue, sym } from './marshal.js'

/**
 * A `.gem` as `gem build` writes it: a plain tar holding `metadata.gz` (the gemspec as YAML),
 * `data.tar.gz` (the files) and `checksums.yaml.gz`.
 */

/** A requirement as RubyGems keeps it: operator and version pairs (`>= 1.0`, `< 2`). */
export type Requirement = [string, string][]

export interface GemDependency {
  name: string
  requirement: Requirement
  type: 'runtime' | 'development'
}

/** What Trove keeps of a gemspec: what the indexes and the quick gemspec need, and the console shows. */
export interface GemSpec {
  name: string
  version: string
  platform: string
  summary: string
  description: string
  authors: string[]
  email: string[]
  homepage: string | null
  licenses: string[]
  metadata: Record<string, string>
  dependencies: GemDependency[]
  requiredRubyVersion: Requirement
  requiredRubygemsVersion: Requirement
  rubygemsVersion: string
  specificationVersion: number
  date: string
}

/** RubyGems' names: letters, digits, `.`, `-`, `_`, with at least one letter or digit. */
const GEM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
/** Gem::Version's pattern: dot-separated segments of digits and letters, optionally `-pre` parts. */
const GEM_VERSION = /^[0-9]+(\.[0-9a-zA-Z]+)*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/

const bad = (message: string) => new HttpError(422, `Refused gem: ${message}`)

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v))
const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x) => x !== null && x !== undefined).map(String) : v ? [String(v)] : []

/** A Gem::Requirement's pairs out of its YAML (`requirements: [[">=", {version: "1.0"}]]`). */
function requirement(v: unknown): Requirement {
  const pairs = (v as { requirements?: unknown } | null)?.requirements
  if (!Array.isArray(pairs)) return [['>=', '0']]
  return pairs
    .filter((p): p is [unknown, unknown] => Array.isArray(p) && p.length === 2)
    .map(([op, version]) => [str(op), str((version as { version?: unknown } | null)?.version ?? version)])
}

/** A version's prerelease flag, as RubyGems decides it: any letter in it. */
export const isPrerelease = (version: string) => /[a-zA-Z]/.test(version)

/** Reads and checks a `.gem` (safely: the archive checks of formats/kit/archive.ts apply). */
export async function readGem(data: Buffer | string, maxExpandedBytes: number): Promise<GemSpec> {
  let entries: Map<string, Buffer>
  try {
    entries = await readTarGz(data, { want: (n) => n === 'metadata.gz', maxExpandedBytes, maxEntryBytes: 4 * 1024 * 1024 })
  } catch (error) {
    if (error instanceof HttpError) throw bad(error.message.replace(/^Refused archive: /, ''))
    throw bad('not a tar archive')
  }
  const gz = entries.get('metadata.gz')
  if (!gz) throw bad('no metadata.gz in the archive: is it a .gem?')
  let y: Record<string, unknown>
  try {
    const text = zlib.gunzipSync(gz, { maxOutputLength: 4 * 1024 * 1024 }).toString('utf8')
    // The gemspec's tags (!ruby/object:Gem::Specification …) name Ruby classes: read as plain maps.
    const doc = YAML.parse(text, { logLevel: 'error', maxAliasCount: 100 })
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not a mapping')
    y = doc as Record<string, unknown>
  } catch {
    throw bad('metadata.gz is not a gemspec')
  }
  const name = str(y.name)
  const version = str((y.version as { version?: unknown } | null)?.version)
  if (!GEM_NAME.test(name) || name.length > 100) throw bad(`${JSON.stringify(name)} is not a valid gem name`)
  if (!GEM_VERSION.test(version)) throw bad(`${JSON.stringify(version)} is not a valid gem version`)
  const platform = str(y.platform) || 'ruby'
  if (!/^[A-Za-z0-9_.-]+$/.test(platform)) throw bad(`${JSON.stringify(platform)} is not a valid platform`)
  const metadata = y.metadata && typeof y.metadata === 'object' && !Array.isArray(y.metadata) ? y.metadata : {}
  return {
    name,
    version,
    platform,
    summary: str(y.summary),
    description: str(y.description),
    authors: list(y.authors),
    email: list(y.email),
    homepage: str(y.homepage) || null,
    licenses: list(y.licenses),
    metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, str(v)])),
    dependencies: (Array.isArray(y.dependencies) ? y.dependencies : [])
      .filter((d): d is Record<string, unknown> => !!d && typeof d === 'object' && typeof d.name === 'string')
      .map((d) => ({
        name: d.name as string,
        requirement: requirement(d.requirement),
        type: str(d.type).replace(/^:/, '') === 'development' ? 'development' : 'runtime',
      })),
    requiredRubyVersion: requirement(y.required_ruby_version),
    requiredRubygemsVersion: requirement(y.required_rubygems_version),
    rubygemsVersion: str(y.rubygems_version) || '3.3.15',
    specificationVersion: Number(y.specification_version) || 4,
    date: str(y.date).slice(0, 10) || new Date().toISOString().slice(0, 10),
  }
}

/** The file a gem version is stored as (and downloaded by): `gems/<name>-<version>[-<platform>].gem`. */
export const gemFileName = (spec: Pick<GemSpec, 'name' | 'version' | 'platform'>) =>
  `${spec.name}-${spec.version}${spec.platform === 'ruby' ? '' : `-${spec.platform}`}.gem`

const version = (v: string) => new RubyUserMarshal('Gem::Version', [v])
const requirementValue = (r: Requirement) => new RubyUserMarshal('Gem::Requirement', [r.map(([op, v]) => [op, version(v)])])

/** A requirement as the compact index writes it: `>= 1.0&< 2`. */
export const requirementText = (r: Requirement) => r.map(([op, v]) => `${op} ${v}`).join('&')

/**
 * The quick gemspec `gem install` fetches: `Gem::Specification._dump`'s array (the fields of
 * `Gem::Specification._load`, in its order), marshalled, then deflated.
 */
export function quickGemspec(spec: GemSpec): Buffer {
  const dependencies = spec.dependencies.map(
    (d) =>
      new RubyObject('Gem::Dependency', [
        ['@name', d.name],
        ['@requirement', requirementValue(d.requirement)],
        ['@type', sym(d.type)],
        ['@prerelease', false],
        ['@version_requirements', requirementValue(d.requirement)],
      ]),
  )
  const fields: RubyValue[] = [
    spec.rubygemsVersion,
    spec.specificationVersion,
    spec.name,
    version(spec.version),
    spec.date,
    spec.summary,
    requirementValue(spec.requiredRubyVersion),
    requirementValue(spec.requiredRubygemsVersion),
    spec.platform,
    dependencies,
    '',
    spec.email.length === 1 ? (spec.email[0] as string) : spec.email,
    spec.authors,
    spec.description,
    spec.homepage,
    true,
    spec.platform,
    spec.licenses,
    new RubyHash(Object.entries(spec.metadata)),
  ]
  return zlib.deflateSync(marshal(new RubyUserDump('Gem::Specification', marshal(fields))))
}

/** A specs index (`specs.4.8.gz` and its kin): name, Gem::Version and platform of each gem version. */
export function specsIndex(tuples: { name: string; version: string; platform: string }[]): Buffer {
  return zlib.gzipSync(marshal(tuples.map((t) => [t.name, version(t.version), t.platform])))
}
