import semver from 'semver'
import type { Component } from '../types.js'
import { asObject, asString, ComponentList, linesOf, ManifestError } from './components.js'

const MAX_DEPTH = 64

/**
 * package-lock.json / npm-shrinkwrap.json. Versions 2 and 3 list every installed package under
 * `packages`, keyed by its place in node_modules; version 1 only has the nested `dependencies` tree.
 * Versions that are not semver (git URLs, file: paths in version 1) name no registry release and are dropped.
 */
export function parsePackageLock(path: string, text: string): Component[] {
  const lock = asObject(parseJson(text))
  if (!lock) throw new ManifestError('not a JSON object')
  const list = new ComponentList('npm', path)
  const packages = asObject(lock.packages)
  if (packages) {
    for (const [key, value] of Object.entries(packages)) {
      const entry = asObject(value)
      // "" is the project itself; keys without node_modules/ are its workspaces; links point at those.
      const at = key.lastIndexOf('node_modules/')
      if (!entry || at < 0 || entry.link === true) continue
      const name = asString(entry.name) ?? key.slice(at + 'node_modules/'.length)
      addNpm(list, name, asString(entry.version))
    }
    return list.items
  }
  const walk = (dependencies: unknown, depth: number): void => {
    const deps = asObject(dependencies)
    if (!deps || depth > MAX_DEPTH) return
    for (const [name, value] of Object.entries(deps)) {
      const entry = asObject(value)
      if (!entry) continue
      addNpm(list, name, asString(entry.version))
      walk(entry.dependencies, depth + 1)
    }
  }
  walk(lock.dependencies, 0)
  return list.items
}

/** Adds a package, resolving an alias ("npm:real-name@1.2.3") to the package actually installed. */
function addNpm(list: ComponentList, name: string, version: string | undefined): void {
  if (!version) return
  if (version.startsWith('npm:')) {
    const spec = version.slice(4)
    const at = spec.lastIndexOf('@')
    if (at <= 0) return
    addNpm(list, spec.slice(0, at), spec.slice(at + 1))
    return
  }
  if (semver.valid(version)) list.add(name, version)
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ManifestError(`not valid JSON (${(error as Error).message})`)
  }
}

/** The package name of a yarn.lock key such as `"@scope/pkg@^1.0.0"` or `lodash@npm:^4.17.0`. */
function yarnKeyName(spec: string): string {
  const at = spec.indexOf('@', 1)
  return at < 0 ? spec : spec.slice(0, at)
}

/**
 * yarn.lock, classic (v1) or Berry (YAML): each unindented key line names one package (possibly
 * under several ranges) and its indented `version` line gives what was resolved. Berry's
 * workspace, link and portal entries are the project's own code and are skipped.
 */
export function parseYarnLock(path: string, text: string): Component[] {
  const list = new ComponentList('npm', path)
  let name: string | null = null
  for (const line of linesOf(text)) {
    if (line === '' || line.startsWith('#')) continue
    if (!/^\s/.test(line)) {
      name = null
      if (!line.endsWith(':') || line.startsWith('__metadata')) continue
      const first = line.slice(0, -1).split(',')[0]?.trim().replace(/^"|"$/g, '') ?? ''
      if (/@(workspace|link|portal|file):/.test(first)) continue
      name = yarnKeyName(first)
      continue
    }
    const version = /^\s+version:?\s+"?([^"\s]+)"?\s*$/.exec(line)
    if (name && version?.[1]) {
      if (semver.valid(version[1])) list.add(name, version[1])
      name = null
    }
  }
  return list.items
}
