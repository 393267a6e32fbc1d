import type { Component, Ecosystem } from '../types.js'

/** Collects a file's components, dropping exact repeats (a lockfile may list one package at several places). */
export class ComponentList {
  readonly items: Component[] = []
  private readonly seen = new Set<string>()

  constructor(
    private readonly ecosystem: Ecosystem,
    private readonly path: string,
  ) {}

  add(name: string, version: string, extra: { binary?: string; licenses?: string[] } = {}): void {
    if (!name || !version) return
    const key = `${name}\0${version}\0${extra.binary ?? ''}`
    if (this.seen.has(key)) return
    this.seen.add(key)
    const component: Component = { ecosystem: this.ecosystem, name, version, path: this.path }
    if (extra.binary !== undefined) component.binary = extra.binary
    if (extra.licenses !== undefined && extra.licenses.length > 0) component.licenses = extra.licenses
    this.items.push(component)
  }
}

/** Text lines of a file, whatever its line endings. */
export const linesOf = (text: string): string[] => text.split(/\r?\n/)

/** A value read from parsed JSON, narrowed to a plain object (or null). */
export const asObject = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null

export const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** Thrown by a parser for content it cannot read; turned into `error` by parseManifestDetailed. */
export class ManifestError extends Error {}
