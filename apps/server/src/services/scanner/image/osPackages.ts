import { ComponentList } from '../lockfiles/components.js'
import type { Component } from '../types.js'

export interface OsRelease {
  /** ID from os-release ("debian", "ubuntu", "alpine"). */
  id: string
  /** VERSION_ID ("12", "3.19.1"), or "" when the release has none (Debian sid, rolling releases). */
  versionId: string
  prettyName?: string
}

/** os-release (freedesktop.org): shell-style KEY=value lines, values optionally quoted. */
export function parseOsRelease(text: string): OsRelease | null {
  const values = new Map<string, string>()
  for (const line of text.split(/\r?\n/)) {
    const pair = /^\s*([A-Z0-9_]+)=(.*)$/.exec(line)
    if (!pair?.[1]) continue
    let value = (pair[2] ?? '').trim()
    if (/^"(.*)"$/.test(value)) value = value.slice(1, -1).replace(/\\(["\\`$])/g, '$1')
    else if (/^'(.*)'$/.test(value)) value = value.slice(1, -1)
    values.set(pair[1], value)
  }
  const id = values.get('ID')
  if (!id) return null
  const release: OsRelease = { id, versionId: values.get('VERSION_ID') ?? '' }
  const prettyName = values.get('PRETTY_NAME')
  if (prettyName) release.prettyName = prettyName
  return release
}

/** The paragraphs of a Debian control-style file: fields by name, continuation lines folded in. */
function paragraphs(text: string, field: RegExp): Map<string, string>[] {
  const found: Map<string, string>[] = []
  let current = new Map<string, string>()
  let last: string | null = null
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (current.size > 0) found.push(current)
      current = new Map()
      last = null
      continue
    }
    if (/^\s/.test(line)) {
      if (last) current.set(last, `${current.get(last) ?? ''}\n${line.trim()}`)
      continue
    }
    const pair = field.exec(line)
    if (!pair?.[1]) continue
    last = pair[1]
    current.set(last, (pair[2] ?? '').trim())
  }
  if (current.size > 0) found.push(current)
  return found
}

/**
 * dpkg's database: `var/lib/dpkg/status`, or one file per package in distroless images'
 * `var/lib/dpkg/status.d/`. A package counts when its Status says installed (those files have no
 * Status, and everything in them is installed). The component is named after the *source*
 * package, as Debian's and Ubuntu's advisories are, at the source version when `Source:` gives one
 * ("openssl (3.0.11-1~deb12u2)") and the binary's version otherwise; `binary` is the package.
 * The ecosystem is Debian whatever the distribution: Ubuntu and other dpkg-based images use the
 * same database, and the caller decides from the os-release ID which advisories apply.
 */
export function parseDpkgStatus(path: string, text: string): Component[] {
  const list = new ComponentList('Debian', path)
  for (const fields of paragraphs(text, /^([A-Za-z0-9-]+):(.*)$/)) {
    const binary = fields.get('Package')
    const binaryVersion = fields.get('Version')
    const status = fields.get('Status')
    if (!binary || !binaryVersion) continue
    if (status !== undefined && status.split(/\s+/)[2] !== 'installed') continue
    const source = /^(\S+)(?:\s+\(([^)]+)\))?/.exec(fields.get('Source') ?? '')
    list.add(source?.[1] ?? binary, source?.[2] ?? binaryVersion, { binary })
  }
  return list.items
}

/**
 * apk's database (`lib/apk/db/installed`): `P:` package, `V:` version, `o:` origin (the source
 * package Alpine's advisories name), `L:` licence. The ecosystem is Alpine.
 */
export function parseApkInstalled(path: string, text: string): Component[] {
  const list = new ComponentList('Alpine', path)
  for (const fields of paragraphs(text, /^([A-Za-z]):(.*)$/)) {
    const binary = fields.get('P')
    const version = fields.get('V')
    if (!binary || !version) continue
    const license = fields.get('L')
    list.add(fields.get('o') || binary, version, { binary, licenses: license ? [license] : [] })
  }
  return list.items
}
