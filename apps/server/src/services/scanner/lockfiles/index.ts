import type { Component } from '../types.js'
import { parseGoMod, parseGoSum } from './golang.js'
import { parsePomProperties, parsePomXml } from './maven.js'
import { parsePackageLock, parseYarnLock } from './npm.js'
import { parseCoreMetadata, parsePipfileLock, parsePoetryLock, parseRequirements } from './python.js'
import { parseGemfileLock } from './ruby.js'
import { parseCargoLock } from './rust.js'

export { goBuildInfo } from './goBuildInfo.js'
export { componentsOfJar } from './jar.js'

/** Manifests larger than this are not read: no real lockfile comes near it, and it bounds memory. */
export const MAX_MANIFEST_BYTES = 50 * 1024 * 1024

type Parser = (path: string, text: string) => Component[]

const BY_NAME: Record<string, Parser> = {
  'package-lock.json': parsePackageLock,
  'npm-shrinkwrap.json': parsePackageLock,
  'yarn.lock': parseYarnLock,
  'Pipfile.lock': parsePipfileLock,
  'poetry.lock': parsePoetryLock,
  'go.mod': parseGoMod,
  'go.sum': parseGoSum,
  'Cargo.lock': parseCargoLock,
  'Gemfile.lock': parseGemfileLock,
  'pom.properties': parsePomProperties,
  'pom.xml': parsePomXml,
}

/** The parser for a path, chosen by its file name (and, for Python metadata, its directory). */
function parserFor(path: string): Parser | undefined {
  const parts = path.split('/')
  const name = parts[parts.length - 1] ?? ''
  const parent = parts[parts.length - 2] ?? ''
  if (Object.hasOwn(BY_NAME, name)) return BY_NAME[name]
  if (/^requirements.*\.txt$/.test(name)) return parseRequirements
  if ((name === 'METADATA' && parent.endsWith('.dist-info')) || (name === 'PKG-INFO' && parent.endsWith('.egg-info'))) {
    return parseCoreMetadata
  }
  return undefined
}

/** Whether `path` names a manifest or lockfile Trove reads components from. */
export function isManifestPath(path: string): boolean {
  return parserFor(path) !== undefined
}

/**
 * The components a manifest lists, or none and the reason when it cannot be read (not the format
 * its name says, too large). Never throws, whatever the content.
 */
export function parseManifestDetailed(path: string, content: Buffer): { components: Component[]; error?: string } {
  const parser = parserFor(path)
  if (!parser) return { components: [], error: 'not a manifest Trove reads' }
  if (content.length > MAX_MANIFEST_BYTES) {
    return { components: [], error: `larger than ${MAX_MANIFEST_BYTES / 1024 / 1024} MB; not read` }
  }
  try {
    const text = content.toString('utf8').replace(/^\uFEFF/, '')
    return { components: parser(path, text) }
  } catch (error) {
    return { components: [], error: `unreadable: ${(error as Error).message}` }
  }
}

/** The components a manifest lists ([] when it cannot be read; see parseManifestDetailed for why). */
export function parseManifest(path: string, content: Buffer): Component[] {
  return parseManifestDetailed(path, content).components
}
