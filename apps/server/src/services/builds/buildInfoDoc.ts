import { BUILD_ENV_PREFIX, type BuildDiffEntry, type BuildProperty } from '@trove/contracts/builds'

/**
 * Reading a stored build-info document (as CI tools publish it: `modules[{id, artifacts[],
 * dependencies[]}]`, `properties`, `statuses`, …). Documents are kept as published, so every
 * field is read defensively: a tool may leave any of them out or give it another shape.
 */

export interface DocItem {
  /** What identifies the item in its module: an artifact's name, a dependency's id. */
  key: string
  name: string
  type: string | null
  sha1: string | null
  sha256: string | null
  md5: string | null
  scopes: string[]
}

export interface DocModule {
  id: string
  artifacts: DocItem[]
  dependencies: DocItem[]
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
const sum = (v: unknown, length: number): string | null =>
  typeof v === 'string' && v.length === length && /^[a-f0-9]+$/i.test(v) ? v.toLowerCase() : null

/** `2024-05-01T10:00:00.000+0000` (the build-info layout) or any ISO 8601 time → epoch ms, or NaN. */
export const parseBuildTime = (value: string): number => Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))

/**
 * A run's status: its latest promotion status (`statuses[]`, by timestamp; later entries win a
 * tie or a missing time), else a top-level `status` as published, else null.
 */
export function runStatus(info: Json): string | null {
  const statuses = Array.isArray(info.statuses) ? info.statuses : []
  let best: { status: string; at: number } | null = null
  for (const [i, s] of statuses.entries()) {
    if (!isObject(s) || typeof s.status !== 'string' || !s.status.trim()) continue
    const parsed = typeof s.timestamp === 'string' ? parseBuildTime(s.timestamp) : Number.NaN
    const at = Number.isFinite(parsed) ? parsed : i
    if (!best || at >= best.at) best = { status: s.status.trim(), at }
  }
  const status = best?.status ?? (typeof info.status === 'string' ? info.status.trim() : '')
  return status ? status.slice(0, 255) : null
}

function items(list: unknown, kind: 'artifact' | 'dependency'): DocItem[] {
  if (!Array.isArray(list)) return []
  return list.filter(isObject).map((a) => {
    const name = text(a.name)
    const id = text(a.id)
    const key = (kind === 'artifact' ? (name ?? id) : (id ?? name)) ?? ''
    return {
      key,
      name: key,
      type: text(a.type),
      sha1: sum(a.sha1, 40),
      sha256: sum(a.sha256, 64),
      md5: sum(a.md5, 32),
      scopes: Array.isArray(a.scopes) ? a.scopes.filter((s): s is string => typeof s === 'string') : [],
    }
  })
}

/** The document's modules with their artifacts and dependencies. */
export function modulesOf(info: Json): DocModule[] {
  if (!Array.isArray(info.modules)) return []
  return info.modules.filter(isObject).map((m, i) => ({
    id: text(m.id) ?? `module ${i + 1}`,
    artifacts: items(m.artifacts, 'artifact'),
    dependencies: items(m.dependencies, 'dependency'),
  }))
}

const valueText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))

/**
 * `properties` split in two: the environment (keys starting with `buildInfo.env.`, shown without
 * that prefix) and every other property; each sorted by name.
 */
export function propertiesOf(info: Json): { environment: BuildProperty[]; properties: BuildProperty[] } {
  const environment: BuildProperty[] = []
  const properties: BuildProperty[] = []
  if (isObject(info.properties)) {
    for (const [name, value] of Object.entries(info.properties)) {
      if (name.startsWith(BUILD_ENV_PREFIX))
        environment.push({ name: name.slice(BUILD_ENV_PREFIX.length), value: valueText(value) })
      else properties.push({ name, value: valueText(value) })
    }
  }
  const byName = (a: BuildProperty, b: BuildProperty) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  return { environment: environment.sort(byName), properties: properties.sort(byName) }
}

/** The revision a run was built from: `vcsRevision`, else the first `vcs[]` entry's. */
export function vcsRevisionOf(info: Json): string | null {
  const direct = text(info.vcsRevision)
  if (direct) return direct
  const first = Array.isArray(info.vcs) ? info.vcs.find(isObject) : undefined
  return first ? text(first.revision) : null
}

/** Whether two items' contents differ, by the strongest checksum both carry (none: the same). */
function contentChanged(a: DocItem, b: DocItem): boolean {
  if (a.sha256 && b.sha256) return a.sha256 !== b.sha256
  if (a.sha1 && b.sha1) return a.sha1 !== b.sha1
  if (a.md5 && b.md5) return a.md5 !== b.md5
  return false
}

/** Items of a module by key; an item listed twice under one key counts as two (`key`, `key` #2, …). */
function byKey(list: DocItem[]): Map<string, DocItem> {
  const out = new Map<string, DocItem>()
  for (const item of list) {
    let key = item.key
    for (let n = 2; out.has(key); n++) key = `${item.key}\u0000${n}`
    out.set(key, item)
  }
  return out
}

const sums = (i: DocItem) => ({ sha1: i.sha1, sha256: i.sha256 })
const CHANGE_ORDER = { added: 0, removed: 1, changed: 2 } as const

/** A module id without its version (`group:artifact:1.2` → `group:artifact`), or null without one. */
const moduleStem = (id: string): string | null => (id.includes(':') ? id.slice(0, id.lastIndexOf(':')) : null)

/**
 * Pairs the modules of two runs: by id, then — since Maven and Gradle module ids end with the
 * version, which changes from run to run — a module left on each side with the same id but for
 * its last `:` segment, when that names one module on each side. Each pair is labelled with the
 * compared run's id.
 */
function pairModules(base: DocModule[], compared: DocModule[]): { id: string; before?: DocModule; after?: DocModule }[] {
  const pairs: { id: string; before?: DocModule; after?: DocModule }[] = []
  const before = new Map(base.map((m) => [m.id, m]))
  const leftAfter: DocModule[] = []
  for (const m of compared) {
    const old = before.get(m.id)
    if (old) {
      pairs.push({ id: m.id, before: old, after: m })
      before.delete(m.id)
    } else leftAfter.push(m)
  }
  const byStem = (list: Iterable<DocModule>) => {
    const out = new Map<string, DocModule[]>()
    for (const m of list) {
      const stem = moduleStem(m.id)
      if (stem !== null) out.set(stem, [...(out.get(stem) ?? []), m])
    }
    return out
  }
  const beforeStems = byStem(before.values())
  const afterStems = byStem(leftAfter)
  for (const m of leftAfter) {
    const stem = moduleStem(m.id)
    const olds = stem === null ? undefined : beforeStems.get(stem)
    const old = olds?.length === 1 && afterStems.get(stem as string)?.length === 1 ? olds[0] : undefined
    if (old) before.delete(old.id)
    pairs.push({ id: m.id, before: old, after: m })
  }
  for (const m of before.values()) pairs.push({ id: m.id, before: m })
  return pairs
}

/**
 * What changed from `base` to `compared`, per module: items only in `compared` are added, only in
 * `base` removed, in both with other content (by checksum) changed. A module missing on one side
 * has all its items added or removed.
 */
export function diffModules(
  base: DocModule[],
  compared: DocModule[],
): { artifacts: BuildDiffEntry[]; dependencies: BuildDiffEntry[] } {
  const out = { artifacts: [] as BuildDiffEntry[], dependencies: [] as BuildDiffEntry[] }
  const pairs = pairModules(base, compared)
  for (const kind of ['artifacts', 'dependencies'] as const) {
    for (const { id: module, before, after } of pairs) {
      const old = byKey(before?.[kind] ?? [])
      const now = byKey(after?.[kind] ?? [])
      for (const [key, item] of now) {
        const was = old.get(key)
        if (!was) out[kind].push({ module, name: item.name, type: item.type, change: 'added', before: null, after: sums(item) })
        else if (contentChanged(was, item))
          out[kind].push({ module, name: item.name, type: item.type, change: 'changed', before: sums(was), after: sums(item) })
      }
      for (const [key, item] of old) {
        if (!now.has(key))
          out[kind].push({ module, name: item.name, type: item.type, change: 'removed', before: sums(item), after: null })
      }
    }
    out[kind].sort(
      (a, b) =>
        (a.module < b.module ? -1 : a.module > b.module ? 1 : 0) ||
        CHANGE_ORDER[a.change] - CHANGE_ORDER[b.change] ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    )
  }
  return out
}
