import type { Component } from '../types.js'
import { ComponentList } from './components.js'
import { tomlPackages } from './tomlPackages.js'

/**
 * Cargo.lock: one `[[package]]` per crate. Crates without a `source` are the workspace's own
 * members (path dependencies), not releases from a registry, and are skipped.
 */
export function parseCargoLock(path: string, text: string): Component[] {
  const list = new ComponentList('crates.io', path)
  for (const pkg of tomlPackages(text)) {
    if (pkg.name && pkg.version && pkg.source) list.add(pkg.name, pkg.version)
  }
  return list.items
}
