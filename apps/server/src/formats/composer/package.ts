import { HttpError } from '../../core/errors.js'
import { readZip } from '../kit/archive.js'

/**
 * A Composer package archive: a zip holding `composer.json` at its root, or under one top folder
 * (as GitHub's and `composer archive`'s zips do; Composer unpacks a single top folder away).
 */

/** Composer's own rule for package names (`composer validate`): `vendor/name`, lower case. */
export const PACKAGE_NAME = /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$/

/**
 * Versions Composer's VersionParser normalizes: `1.2.3`, `v1.2`, `1.0.0-beta2`, `2.0-RC1`,
 * `1.0.0-dev`, `1.0.0+build`, and branches as `dev-<branch>` (without slashes: the version is part
 * of a file name here).
 */
const VERSION =
  /^(v?\d+(\.\d+){0,3}([._-]?(stable|beta|b|rc|alpha|a|patch|pl|p)(\.?\d+)*)?([.-]?dev)?(\+[0-9A-Za-z.-]+)?|dev-[A-Za-z0-9][A-Za-z0-9._-]*)$/i

export const isValidVersion = (version: string) => version.length <= 100 && VERSION.test(version)

/** Dev versions (branches and `-dev` versions) go in `p2/<name>~dev.json`, the rest in `p2/<name>.json`. */
export const isDevVersion = (version: string) => /^dev-/i.test(version) || /[.-]dev$/i.test(version)

/** Keys of a root package only: a dependency's are ignored by Composer, so they are not served. */
const ROOT_ONLY = ['repositories', 'config', 'minimum-stability', 'prefer-stable', 'scripts', 'scripts-descriptions']

export interface ComposerPackage {
  name: string
  version: string
  /** composer.json as served to clients: the archive's, with the version set and root-only keys left out. */
  manifest: Record<string, unknown>
  readme: string | null
}

const bad = (message: string) => new HttpError(400, `Refused package: ${message}`)

const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []

/** The licences composer.json declares (`license`: a string or a list). */
export const licensesOf = (manifest: Record<string, unknown>) => strings(manifest.license)
export const keywordsOf = (manifest: Record<string, unknown>) => strings(manifest.keywords)

/** A link section (`require`, `require-dev`) as name → constraint. */
export function linksOf(manifest: Record<string, unknown>, key: 'require' | 'require-dev'): [string, string][] {
  const links = manifest[key]
  if (!links || typeof links !== 'object' || Array.isArray(links)) return []
  return Object.entries(links as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string')
}

/**
 * Reads and checks a package zip (safely: the archive checks of formats/kit/archive.ts apply). The
 * version is composer.json's `version`; without one, `queryVersion` (the upload's `?version=`);
 * both given and different is refused.
 */
export async function readComposerZip(
  data: Buffer | string,
  maxExpandedBytes: number,
  queryVersion?: string,
): Promise<ComposerPackage> {
  const tops = new Set<string>()
  let atRoot = false
  let entries: Map<string, Buffer>
  try {
    entries = await readZip(data, {
      want: (n) => /^([^/]+\/)?(composer\.json|readme\.md|readme)$/i.test(n),
      entry: (n) => {
        const slash = n.indexOf('/')
        if (slash < 0) atRoot = true
        else tops.add(n.slice(0, slash))
      },
      maxExpandedBytes,
      maxEntryBytes: 1024 * 1024,
    })
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw bad('not a zip archive')
  }
  // composer.json at the root, else in the single top folder.
  const folder = entries.has('composer.json') ? '' : !atRoot && tops.size === 1 ? `${[...tops][0]}/` : undefined
  const raw = folder === undefined ? undefined : entries.get(`${folder}composer.json`)
  if (!raw) throw bad('no composer.json at the root of the zip or in its single top folder')
  let doc: unknown
  try {
    doc = JSON.parse(raw.toString('utf8'))
  } catch (error) {
    throw bad(`composer.json is not JSON (${(error as Error).message})`)
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw bad('composer.json is not an object')
  const manifest = { ...(doc as Record<string, unknown>) }
  const name = manifest.name
  if (typeof name !== 'string' || !name) throw bad('composer.json has no name')
  if (!PACKAGE_NAME.test(name) || name.length > 200) {
    throw bad(`${JSON.stringify(name)} is not a valid package name (vendor/name, lower case)`)
  }
  const declared = typeof manifest.version === 'string' && manifest.version ? manifest.version : undefined
  if (declared && queryVersion && declared !== queryVersion) {
    throw bad(`composer.json says version ${declared}, the upload says ${queryVersion}`)
  }
  const version = declared ?? queryVersion
  if (!version) throw bad('no version: set it in composer.json or upload with ?version=<version>')
  if (!isValidVersion(version)) throw bad(`${JSON.stringify(version)} is not a valid Composer version`)
  for (const key of ROOT_ONLY) delete manifest[key]
  manifest.version = version
  const dir = folder ?? ''
  const readme = [...entries.entries()].find(([n]) => n.startsWith(dir) && /^readme(\.md)?$/i.test(n.slice(dir.length)))
  return { name, version, manifest, readme: readme ? readme[1].toString('utf8') : null }
}

/** Where a version's zip is stored in its repository. */
export const distPath = (name: string, version: string) => `${name}/${name.split('/')[1]}-${version}.zip`
