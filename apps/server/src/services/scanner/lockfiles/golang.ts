import type { Component } from '../types.js'
import { ComponentList, linesOf } from './components.js'

/**
 * Go writes versions with a leading "v" (v1.2.3); OSV's Go advisories do not (1.2.3), so components
 * carry the version as OSV spells it.
 */
export const osvGoVersion = (version: string): string => version.replace(/^v(?=\d)/, '')

const unquote = (token: string): string => token.replace(/^"(.*)"$/, '$1').replace(/^`(.*)`$/, '$1')

/** A go.mod path is local (a directory) when it starts like a file path, as cmd/go decides. */
const isLocalPath = (path: string): boolean => /^(\.\.?(\/|$)|\/)/.test(path)

/**
 * go.mod: the `require` lines (single and in blocks). A `replace` of a required module by another
 * module version means that version is what gets built, so the replacement is reported; a
 * replacement by a local directory keeps the required module and version, the closest name the
 * local copy has.
 */
export function parseGoMod(path: string, text: string): Component[] {
  const required: { module: string; version: string }[] = []
  const replaced = new Map<string, { module: string; version: string } | null>()
  let block: string | null = null
  for (const raw of linesOf(text)) {
    const line = raw.replace(/\/\/.*$/, '').trim()
    if (line === '') continue
    if (block) {
      if (line === ')') block = null
      else directive(block, line)
      continue
    }
    const opening = /^(\w+)\s*\($/.exec(line)
    if (opening?.[1]) {
      block = opening[1]
      continue
    }
    const single = /^(\w+)\s+(.*)$/.exec(line)
    if (single?.[1] && single[2]) directive(single[1], single[2])
  }

  function directive(verb: string, rest: string): void {
    if (verb === 'require') {
      const [module, version] = rest.split(/\s+/).map(unquote)
      if (module && version) required.push({ module, version })
    } else if (verb === 'replace') {
      const [from, to] = rest.split('=>').map((side) => side.trim().split(/\s+/).map(unquote))
      const [module, fromVersion] = from ?? []
      const [target, targetVersion] = to ?? []
      if (!module || !target) return
      const key = fromVersion ? `${module}@${fromVersion}` : module
      replaced.set(key, isLocalPath(target) || !targetVersion ? null : { module: target, version: targetVersion })
    }
  }

  const list = new ComponentList('Go', path)
  for (const { module, version } of required) {
    const exact = `${module}@${version}`
    const replacement = replaced.has(exact) ? replaced.get(exact) : replaced.get(module)
    const used = replacement ?? { module, version }
    list.add(used.module, osvGoVersion(used.version))
  }
  return list.items
}

/**
 * go.sum: `module version hash` lines, twice for most modules (the tree's hash, and `version/go.mod`
 * for its go.mod only); each module version is reported once.
 */
export function parseGoSum(path: string, text: string): Component[] {
  const list = new ComponentList('Go', path)
  for (const line of linesOf(text)) {
    const [module, version] = line.trim().split(/\s+/)
    if (module && version?.startsWith('v')) list.add(module, osvGoVersion(version.replace(/\/go\.mod$/, '')))
  }
  return list.items
}
