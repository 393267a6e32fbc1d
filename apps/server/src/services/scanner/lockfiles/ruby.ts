import type { Component } from '../types.js'
import { ComponentList, linesOf } from './components.js'

/**
 * Gemfile.lock: the gems listed under `specs:` of the GEM section (GIT and PATH sections hold
 * gems from elsewhere). Specs sit four spaces in, their own dependencies six; a platform gem's
 * version carries its platform ("1.15.4-x86_64-linux"), which is not part of the release's version.
 */
export function parseGemfileLock(path: string, text: string): Component[] {
  const list = new ComponentList('RubyGems', path)
  let inGem = false
  for (const line of linesOf(text)) {
    if (/^\S/.test(line)) {
      inGem = line.trim() === 'GEM'
      continue
    }
    if (!inGem) continue
    const spec = /^ {4}([^\s(]+) \(([^)\s]+)\)\s*$/.exec(line)
    if (spec?.[1] && spec[2]) list.add(spec[1], spec[2].replace(/-.*$/, ''))
  }
  return list.items
}
