import { HttpError } from '../../core/errors.js'
import { readTarGz } from '../kit/archive.js'

/**
 * Cargo's rules and documents: crate names and versions, the publish request's body, the `.crate`
 * archive (a gzipped tar with every entry under `<name>-<version>/`), and the sparse index's lines
 * (https://doc.rust-lang.org/cargo/reference/registry-index.html).
 */

/** One dependency of an index line, as the registry index documents it. */
export interface IndexDependency {
  name: string
  req: string
  features: string[]
  optional: boolean
  default_features: boolean
  target: string | null
  kind: 'normal' | 'dev' | 'build'
  registry: string | null
  /** The crate's real name when the dependency is renamed (`name` is then the name in Cargo.toml). */
  package?: string
}

/** One line of an index file: a version of a crate. */
export interface IndexEntry {
  name: string
  vers: string
  deps: IndexDependency[]
  cksum: string
  features: Record<string, string[]>
  yanked: boolean
  links: string | null
  v: number
  features2?: Record<string, string[]>
  rust_version?: string | null
}

/** What `cargo publish` sends beside the archive (cargo's `NewCrate`), as far as Trove reads it. */
export interface PublishMetadata {
  name: string
  vers: string
  deps: {
    name: string
    version_req: string
    features?: string[]
    optional?: boolean
    default_features?: boolean
    target?: string | null
    kind?: string | null
    registry?: string | null
    explicit_name_in_toml?: string | null
  }[]
  features?: Record<string, string[]>
  description?: string | null
  readme?: string | null
  keywords?: string[]
  license?: string | null
  links?: string | null
  rust_version?: string | null
  homepage?: string | null
  repository?: string | null
  documentation?: string | null
  authors?: string[]
}

const bad = (message: string) => new HttpError(400, message)

/** crates.io's rule: ASCII letters, digits, `-` and `_`, at most 64, starting with a letter. */
export function crateNameProblem(name: string): string | null {
  if (name.length === 0) return 'the name is empty'
  if (name.length > 64) return 'the name is longer than 64 characters'
  if (!/^[A-Za-z]/.test(name)) return 'the name must start with an ASCII letter'
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return 'only ASCII letters, digits, - and _ are allowed'
  return null
}

/** SemVer 2.0.0, as Cargo parses versions (no leading `v`, no leading zeros). */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/
export const isCrateVersion = (version: string) => version.length <= 128 && SEMVER.test(version)

/** The key under which crates.io keeps names unique: case and `-`/`_` do not tell two crates apart. */
export const canonicalName = (name: string) => name.toLowerCase().replaceAll('-', '_')

/** An index file's path for a crate: `1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd…`, lower-cased. */
export function indexPath(name: string): string {
  const n = name.toLowerCase()
  if (n.length <= 2) return `${n.length}/${n}`
  if (n.length === 3) return `3/${n[0]}/${n}`
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`
}

/** Where a version's archive is kept in its repository. */
export const crateFilePath = (name: string, version: string) => `crates/${name}/${name}-${version}.crate`

/** Splits a publish body: u32 LE JSON length, the JSON, u32 LE archive length, the archive. */
export function parsePublishBody(body: Buffer): { metadata: PublishMetadata; crate: Buffer } {
  if (body.length < 4) throw bad('The publish request is too short to hold its metadata length')
  const jsonLength = body.readUInt32LE(0)
  if (4 + jsonLength + 4 > body.length) throw bad('The publish request’s metadata length is longer than the request')
  let metadata: unknown
  try {
    metadata = JSON.parse(body.subarray(4, 4 + jsonLength).toString('utf8'))
  } catch {
    throw bad('The publish request’s metadata is not JSON')
  }
  const crateLength = body.readUInt32LE(4 + jsonLength)
  const rest = body.length - (8 + jsonLength)
  if (crateLength !== rest) throw bad(`The publish request’s crate length says ${crateLength} bytes; ${rest} follow`)
  const m = metadata as Partial<PublishMetadata> | null
  if (!m || typeof m !== 'object' || typeof m.name !== 'string' || typeof m.vers !== 'string') {
    throw bad('The publish request’s metadata needs a name and a vers')
  }
  if (!Array.isArray(m.deps)) m.deps = []
  for (const d of m.deps) {
    if (!d || typeof d.name !== 'string' || typeof d.version_req !== 'string') {
      throw bad('Every dependency of the publish request needs a name and a version_req')
    }
  }
  return { metadata: m as PublishMetadata, crate: body.subarray(8 + jsonLength) }
}

/** Checks a crate name and version named by a client; 400 with Cargo's reason. */
export function checkCrate(name: string, version: string): void {
  const problem = crateNameProblem(name)
  if (problem) throw bad(`Invalid crate name ${JSON.stringify(name)}: ${problem}`)
  if (!isCrateVersion(version)) throw bad(`Invalid version ${JSON.stringify(version)}: not a SemVer version`)
}

const NEW_FEATURE_SYNTAX = (values: string[]) => values.some((v) => v.startsWith('dep:') || v.includes('?/'))

/** The index line of a published version, as crates.io writes it from the publish metadata. */
export function indexEntryOf(m: PublishMetadata, cksum: string): IndexEntry {
  const features: Record<string, string[]> = {}
  const features2: Record<string, string[]> = {}
  for (const [feature, values] of Object.entries(m.features ?? {})) {
    const list = Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : []
    if (NEW_FEATURE_SYNTAX(list)) features2[feature] = list
    else features[feature] = list
  }
  const entry: IndexEntry = {
    name: m.name,
    vers: m.vers,
    deps: m.deps.map((d) => {
      const kind = d.kind === 'dev' || d.kind === 'build' ? d.kind : 'normal'
      const dep: IndexDependency = {
        name: d.explicit_name_in_toml || d.name,
        req: d.version_req,
        features: Array.isArray(d.features) ? d.features : [],
        optional: d.optional === true,
        default_features: d.default_features !== false,
        target: d.target ?? null,
        kind,
        registry: d.registry ?? null,
      }
      if (d.explicit_name_in_toml) dep.package = d.name
      return dep
    }),
    cksum,
    features,
    yanked: false,
    links: m.links ?? null,
    v: 2,
  }
  if (Object.keys(features2).length > 0) entry.features2 = features2
  if (m.rust_version) entry.rust_version = m.rust_version
  return entry
}

/** What the packages browser shows of a crate, from its Cargo.toml (a remote's crates have no publish JSON). */
export interface CrateFacts {
  description: string | null
  license: string | null
  keywords: string[]
  readme: string | null
}

/**
 * The `[package]` table's simple values of a Cargo.toml as `cargo package` normalizes it: strings
 * (basic, literal, multi-line) and arrays of strings. Not a TOML parser: enough for what is shown.
 */
export function packageTable(toml: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  const lines = toml.replace(/\r\n/g, '\n').split('\n')
  let inPackage = false
  const unquote = (s: string) => {
    const t = s.trim()
    if (t.startsWith("'")) return t.slice(1, t.lastIndexOf("'"))
    if (t.startsWith('"')) {
      try {
        return JSON.parse(t.slice(0, t.lastIndexOf('"') + 1)) as string
      } catch {
        return t.slice(1, t.lastIndexOf('"'))
      }
    }
    return undefined
  }
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim()
    if (line.startsWith('[')) {
      inPackage = line === '[package]'
      continue
    }
    if (!inPackage) continue
    const m = /^([A-Za-z0-9_-]+)\s*=\s*(.*)$/.exec(line)
    if (!m) continue
    const key = m[1] as string
    let value = m[2] as string
    if (value.startsWith('"""') || value.startsWith("'''")) {
      const quote = value.slice(0, 3)
      let text = value.slice(3)
      while (!text.includes(quote) && i + 1 < lines.length) text += `\n${lines[++i]}`
      text = text.slice(0, text.indexOf(quote)).replace(/^\n/, '')
      out[key] = quote === '"""' ? text.replace(/\\(["\\])/g, '$1').replace(/\\n/g, '\n') : text
    } else if (value.startsWith('[')) {
      while (!value.includes(']') && i + 1 < lines.length) value += lines[++i]
      out[key] = [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((x) => x[2] ?? JSON.parse(`"${x[1]}"`))
    } else {
      const s = unquote(value)
      if (s !== undefined) out[key] = s
    }
  }
  return out
}

/**
 * Reads and checks a `.crate`: a gzipped tar whose entries all sit under `<name>-<version>/`, with
 * its Cargo.toml; returns what the packages browser shows (the readme the manifest names).
 */
export async function readCrate(data: Buffer | string, name: string, version: string, maxExpandedBytes: number) {
  const folder = `${name}-${version}/`
  if (Buffer.isBuffer(data) && !(data[0] === 0x1f && data[1] === 0x8b)) throw bad('The .crate is not a gzipped tar archive')
  const outside: string[] = []
  let entries: Map<string, Buffer>
  try {
    entries = await readTarGz(data, {
      want: (n) => {
        if (!n.startsWith(folder)) outside.push(n)
        const rest = n.slice(folder.length)
        return n.startsWith(folder) && (!rest.includes('/') || /readme/i.test(rest))
      },
      maxExpandedBytes,
      maxEntryBytes: 1024 * 1024,
    })
  } catch (error) {
    const message = error instanceof HttpError ? error.message.replace(/^Refused archive: /, '') : 'not a gzipped tar'
    throw bad(`The .crate is not a gzipped tar archive Cargo reads: ${message}`)
  }
  if (outside.length > 0) {
    throw bad(`The .crate has entries outside ${folder}: ${outside.slice(0, 3).join(', ')}`)
  }
  const manifest = entries.get(`${folder}Cargo.toml`)
  if (!manifest) throw bad(`The .crate has no ${folder}Cargo.toml`)
  const table = packageTable(manifest.toString('utf8'))
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null)
  const readmeName = str(table.readme) ?? 'README.md'
  const readme = entries.get(`${folder}${readmeName.replace(/^\.\//, '')}`)
  const facts: CrateFacts = {
    description: str(table.description),
    license: str(table.license),
    keywords: Array.isArray(table.keywords) ? table.keywords : [],
    readme: readme ? readme.toString('utf8') : null,
  }
  return facts
}
