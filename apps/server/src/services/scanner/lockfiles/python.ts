import type { Component } from '../types.js'
import { asObject, asString, ComponentList, linesOf, ManifestError } from './components.js'
import { tomlPackages } from './tomlPackages.js'

/** PEP 503: lower case, and every run of `-`, `_` and `.` becomes one `-` (what PyPI advisories name). */
export const normalizePypiName = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-')

/**
 * requirements*.txt: only exact pins (`name==1.2.3`, `name[extra]===1.2.3`, markers and hashes after)
 * say which release is used; ranges, options (-r, -e, --hash), URLs and wildcard pins are skipped.
 */
export function parseRequirements(path: string, text: string): Component[] {
  const list = new ComponentList('PyPI', path)
  // A trailing backslash continues the line (pip-compile puts each --hash on its own line).
  for (const line of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    const pin = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*===?\s*([^\s;,#\\]+)/.exec(line)
    if (pin?.[1] && pin[2] && !pin[2].includes('*')) list.add(normalizePypiName(pin[1]), pin[2])
  }
  return list.items
}

/**
 * A core-metadata file (`*.dist-info/METADATA`, `*.egg-info/PKG-INFO`): its RFC 822 style headers,
 * up to the first blank line (the description follows). The licence is the License-Expression,
 * else a one-line License field, else the licence classifiers; a License field holding the whole
 * licence text names nothing useful and is left out.
 */
export function parseCoreMetadata(path: string, text: string): Component[] {
  const headers = new Map<string, string[]>()
  for (const line of linesOf(text)) {
    if (line.trim() === '') break
    const header = /^([A-Za-z0-9-]+):\s?(.*)$/.exec(line)
    if (!header?.[1]) continue
    const key = header[1].toLowerCase()
    headers.set(key, [...(headers.get(key) ?? []), (header[2] ?? '').trim()])
  }
  const name = headers.get('name')?.[0]
  const version = headers.get('version')?.[0]
  if (!name || !version) throw new ManifestError('no Name and Version headers')
  const list = new ComponentList('PyPI', path)
  list.add(normalizePypiName(name), version, { licenses: licensesOf(headers) })
  return list.items
}

function licensesOf(headers: Map<string, string[]>): string[] {
  const expression = headers.get('license-expression')?.[0]
  if (expression) return [expression]
  const license = headers.get('license')?.[0]
  if (license && license.length <= 100 && license.toUpperCase() !== 'UNKNOWN') return [license]
  return (headers.get('classifier') ?? [])
    .filter((classifier) => classifier.startsWith('License ::'))
    .map((classifier) => classifier.split('::').pop()?.trim() ?? '')
    .filter((name) => name !== '' && name !== 'OSI Approved')
}

/** Pipfile.lock: JSON with the `default` and `develop` sections, each name → { version: "==1.2.3" }. */
export function parsePipfileLock(path: string, text: string): Component[] {
  let lock: Record<string, unknown> | null
  try {
    lock = asObject(JSON.parse(text))
  } catch (error) {
    throw new ManifestError(`not valid JSON (${(error as Error).message})`)
  }
  if (!lock) throw new ManifestError('not a JSON object')
  const list = new ComponentList('PyPI', path)
  for (const section of ['default', 'develop']) {
    for (const [name, value] of Object.entries(asObject(lock[section]) ?? {})) {
      const version = asString(asObject(value)?.version)
      if (version?.startsWith('==')) list.add(normalizePypiName(name), version.replace(/^===?/, ''))
    }
  }
  return list.items
}

/** poetry.lock: one `[[package]]` table per locked distribution. */
export function parsePoetryLock(path: string, text: string): Component[] {
  const list = new ComponentList('PyPI', path)
  for (const pkg of tomlPackages(text)) {
    if (pkg.name && pkg.version) list.add(normalizePypiName(pkg.name), pkg.version)
  }
  return list.items
}
