import { SaxesParser } from 'saxes'
import { HttpError } from '../../core/errors.js'
import { readZip } from '../kit/archive.js'

/**
 * A NuGet package (`.nupkg`): a zip with one `.nuspec` at its root, whose metadata names the id,
 * version, description, licence and dependencies. Read with the archive checks of
 * formats/kit/archive.ts; ids and versions are checked and normalised by NuGet's own rules.
 */

/** NuGet's id rule (PackageIdValidator): word characters in runs joined by `.` or `-`, at most 100. */
const ID = /^\w+([.-]\w+)*$/
export const isValidId = (id: string) => id.length > 0 && id.length <= 100 && ID.test(id)

/** A NuGet version: 1 to 4 numbers, a SemVer 2 release label, build metadata. */
const VERSION =
  /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/

export interface NuGetVersion {
  /** The normalised version, NuGet's identity: `1.0.0`, `1.2.3.4`, `2.0.0-beta.1` (build metadata dropped). */
  normalized: string
  /** The normalised version with its build metadata, as the package declares it (`1.0.0+sha.abc`). */
  full: string
  prerelease: boolean
  numbers: [number, number, number, number]
  release: string
}

/**
 * Parses and normalises a version as NuGet does: leading zeros go (`01.2` → `1.2.0`), it gets at
 * least three parts, a fourth part of 0 is dropped, build metadata is not part of its identity.
 * Returns undefined for what NuGet refuses.
 */
export function parseVersion(text: string): NuGetVersion | undefined {
  if (text.length > 64) return undefined
  const m = VERSION.exec(text.trim())
  if (!m) return undefined
  const numbers = [m[1], m[2], m[3], m[4]].map((n) => Number(n ?? 0)) as [number, number, number, number]
  if (numbers.some((n) => n > 2147483647)) return undefined
  const release = m[5] ?? ''
  // SemVer 2: numeric label parts have no leading zeros.
  if (release.split('.').some((p) => /^0\d+$/.test(p))) return undefined
  const [a, b, c, d] = numbers
  const normalized = `${a}.${b}.${c}${d ? `.${d}` : ''}${release ? `-${release}` : ''}`
  return { normalized, full: m[6] ? `${normalized}+${m[6]}` : normalized, prerelease: release !== '', numbers, release }
}

/** NuGet's version order of parsed versions: the numbers, then a pre-release before its release, labels part by part. */
export function compareParsed(x: NuGetVersion, y: NuGetVersion): number {
  for (let i = 0; i < 4; i++) if (x.numbers[i] !== y.numbers[i]) return (x.numbers[i] as number) - (y.numbers[i] as number)
  if (!x.release || !y.release) return x.release ? -1 : y.release ? 1 : 0
  const px = x.release.split('.')
  const py = y.release.split('.')
  for (let i = 0; i < Math.max(px.length, py.length); i++) {
    const p = px[i]
    const q = py[i]
    if (p === undefined) return -1
    if (q === undefined) return 1
    const np = /^\d+$/.test(p)
    const nq = /^\d+$/.test(q)
    if (np && nq) {
      if (Number(p) !== Number(q)) return Number(p) - Number(q)
    } else if (np !== nq) return np ? -1 : 1
    else {
      const a = p.toLowerCase()
      const b = q.toLowerCase()
      if (a !== b) return a < b ? -1 : 1
    }
  }
  return 0
}

/** NuGet's version order of version texts (unreadable ones by their text, after the readable ones' rules). */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a)
  const y = parseVersion(b)
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0
  return compareParsed(x, y)
}

export interface DependencyGroup {
  /** The target framework as the nuspec writes it (`net45`, `.NETStandard2.0`), or '' for any. */
  targetFramework: string
  dependencies: { id: string; range: string }[]
}

/** What Trove keeps of a nuspec: the fields NuGet's feeds serve. */
export interface Nuspec {
  id: string
  version: string
  fullVersion: string
  title: string
  authors: string
  owners: string
  description: string
  summary: string
  releaseNotes: string
  copyright: string
  tags: string[]
  projectUrl: string
  iconUrl: string
  licenseUrl: string
  /** The SPDX expression of `<license type="expression">`, or ''. */
  licenseExpression: string
  requireLicenseAcceptance: boolean
  /** The path of the readme file `<readme>` names, or ''. */
  readme: string
  dependencyGroups: DependencyGroup[]
}

export interface NuGetPackage {
  nuspec: Nuspec
  /** The nuspec file as it is in the package (served as `<id>.nuspec`). */
  nuspecXml: Buffer
  /** The readme the nuspec names, as text, or null. */
  readme: string | null
}

const bad = (message: string) => new HttpError(400, `Refused package: ${message}`)

/** An element of a parsed XML document: its local name, attributes, child elements and text. */
interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

/**
 * Parses XML into elements (names without their prefix) with saxes: well-formedness is checked,
 * no DTD is read and no entity but XML's own is expanded.
 */
function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false })
  const root: XmlElement = { name: '', attributes: {}, children: [], text: '' }
  const stack: XmlElement[] = [root]
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      name: tag.name.slice(tag.name.indexOf(':') + 1),
      attributes: Object.fromEntries(Object.entries(tag.attributes).map(([k, v]) => [k, String(v)])),
      children: [],
      text: '',
    }
    stack[stack.length - 1]?.children.push(element)
    stack.push(element)
  })
  parser.on('closetag', () => void stack.pop())
  const addText = (t: string) => {
    const top = stack[stack.length - 1]
    if (top) top.text += t
  }
  parser.on('text', addText)
  parser.on('cdata', addText)
  parser.on('doctype', () => {
    throw new Error('a DOCTYPE is not allowed')
  })
  parser.write(xml.replace(/^\uFEFF/, '')).close()
  const top = root.children[0]
  if (!top) throw new Error('no root element')
  return top
}

const childElements = (parent: XmlElement, name: string) => parent.children.filter((c) => c.name === name)
const textOf = (parent: XmlElement, name: string) => (childElements(parent, name)[0]?.text ?? '').trim()

/** Reads a nuspec's metadata; throws 400 for one that is not XML or names no valid id and version. */
export function readNuspec(xml: string): Nuspec {
  let root: XmlElement
  try {
    root = parseXml(xml)
  } catch (error) {
    throw bad(`the .nuspec is not XML (${(error as Error).message.split('\n')[0]})`)
  }
  if (root.name !== 'package') throw bad('the .nuspec is not a NuGet manifest (its root is not <package>)')
  const metadata = childElements(root, 'metadata')[0]
  if (!metadata) throw bad('the .nuspec has no <metadata>')
  const id = textOf(metadata, 'id')
  if (!id) throw bad('the .nuspec has no <id>')
  if (!isValidId(id)) throw bad(`${JSON.stringify(id)} is not a valid package id`)
  const rawVersion = textOf(metadata, 'version')
  if (!rawVersion) throw bad('the .nuspec has no <version>')
  const version = parseVersion(rawVersion)
  if (!version) throw bad(`${JSON.stringify(rawVersion)} is not a valid NuGet version`)
  const license = childElements(metadata, 'license')[0]
  const licenseExpression = license && license.attributes.type === 'expression' ? license.text.trim() : ''
  const dependencies = childElements(metadata, 'dependencies')[0]
  const depsOf = (parent: XmlElement) =>
    childElements(parent, 'dependency')
      .map((d) => ({ id: (d.attributes.id ?? '').trim(), range: (d.attributes.version ?? '').trim() }))
      .filter((d) => d.id)
  const dependencyGroups: DependencyGroup[] = []
  if (dependencies) {
    const direct = depsOf(dependencies)
    if (direct.length > 0) dependencyGroups.push({ targetFramework: '', dependencies: direct })
    for (const group of childElements(dependencies, 'group')) {
      dependencyGroups.push({ targetFramework: (group.attributes.targetFramework ?? '').trim(), dependencies: depsOf(group) })
    }
  }
  return {
    id,
    version: version.normalized,
    fullVersion: version.full,
    title: textOf(metadata, 'title'),
    authors: textOf(metadata, 'authors'),
    owners: textOf(metadata, 'owners'),
    description: textOf(metadata, 'description'),
    summary: textOf(metadata, 'summary'),
    releaseNotes: textOf(metadata, 'releaseNotes'),
    copyright: textOf(metadata, 'copyright'),
    tags: textOf(metadata, 'tags')
      .split(/[\s,;]+/)
      .filter(Boolean),
    projectUrl: textOf(metadata, 'projectUrl'),
    iconUrl: textOf(metadata, 'iconUrl'),
    licenseUrl: textOf(metadata, 'licenseUrl'),
    licenseExpression,
    requireLicenseAcceptance: textOf(metadata, 'requireLicenseAcceptance').toLowerCase() === 'true',
    readme: textOf(metadata, 'readme').replaceAll('\\', '/'),
    dependencyGroups,
  }
}

/** The licences a version declares: its SPDX expression, else its licence URL. */
export const licensesOf = (n: Pick<Nuspec, 'licenseExpression' | 'licenseUrl'>) =>
  n.licenseExpression ? [n.licenseExpression] : n.licenseUrl ? [n.licenseUrl] : []

/**
 * Reads and checks a `.nupkg` (a path to the stored file or its bytes): a zip with exactly one
 * `.nuspec` at its root, a valid id and version; the readme the nuspec names is read too.
 */
export async function readNupkg(data: Buffer | string, maxExpandedBytes: number): Promise<NuGetPackage> {
  const atRoot = (n: string) => !n.includes('/') && n.toLowerCase().endsWith('.nuspec')
  const read = async (want: (name: string) => boolean, entry?: (name: string) => void) => {
    try {
      return await readZip(data, { want, entry, maxExpandedBytes, maxEntryBytes: 4 * 1024 * 1024 })
    } catch (error) {
      if (error instanceof HttpError) throw bad(error.message.replace(/^Refused archive: /, ''))
      throw bad('not a zip archive')
    }
  }
  const nuspecs: string[] = []
  const entries = await read(atRoot, (n) => {
    if (atRoot(n)) nuspecs.push(n)
  })
  if (nuspecs.length === 0) throw bad('no .nuspec at the root of the package')
  if (nuspecs.length > 1) throw bad(`more than one .nuspec at the root of the package (${nuspecs.join(', ')})`)
  const nuspecXml = entries.get(nuspecs[0] as string) as Buffer
  const nuspec = readNuspec(nuspecXml.toString('utf8'))
  let readme: string | null = null
  if (nuspec.readme) {
    // Only now is the readme's name known: the zip is read again for that one entry.
    const wanted = nuspec.readme.replace(/^\/+/, '').toLowerCase()
    const found = [...(await read((n) => n.toLowerCase() === wanted)).values()][0]
    if (!found) throw bad(`the readme ${JSON.stringify(nuspec.readme)} the .nuspec names is not in the package`)
    readme = found.toString('utf8')
  }
  return { nuspec, nuspecXml, readme }
}

/** Where a version's files live in its repository, as the flat container names them (lower case). */
export const nupkgPath = (id: string, version: string) => {
  const i = id.toLowerCase()
  const v = version.toLowerCase()
  return `${i}/${v}/${i}.${v}.nupkg`
}
export const nuspecPath = (id: string, version: string) =>
  `${id.toLowerCase()}/${version.toLowerCase()}/${id.toLowerCase()}.nuspec`
