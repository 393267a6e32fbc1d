import type { Component } from '../types.js'
import { ComponentList } from './components.js'
import { osvGoVersion } from './golang.js'

/** What the Go linker writes at the start of the `.go.buildinfo` section. */
export const BUILDINFO_MAGIC = Buffer.from('\xff Go buildinf:', 'latin1')
/** The section starts 16-byte aligned; its header (magic, pointer size, flags, two pointers) is 32 bytes. */
const ALIGN = 16
const HEADER_BYTES = 32
/** Flag bit set by Go 1.18 and later: the version and module strings follow the header inline. */
const FLAG_INLINE_STRINGS = 0x2
/** The module information is framed by a 16-byte sentinel at each end. */
const SENTINEL_BYTES = 16

/** A uvarint (Go's encoding/binary) at `offset`: its value and length, or null when cut short or overlong. */
function readUvarint(data: Buffer, offset: number): { value: number; bytes: number } | null {
  let value = 0
  for (let i = 0; i < 10; i++) {
    const byte = data[offset + i]
    if (byte === undefined) return null
    value += (byte & 0x7f) * 2 ** (7 * i)
    if (byte < 0x80) return Number.isSafeInteger(value) ? { value, bytes: i + 1 } : null
  }
  return null
}

/**
 * How many bytes, counted from the magic, the build information takes: 'more' when `data` (which
 * starts at the magic) is too short to tell, null when it is not the inline form Go 1.18+ writes.
 */
export function buildInfoExtent(data: Buffer): number | 'more' | null {
  if (data.length < HEADER_BYTES) return 'more'
  if (((data[15] ?? 0) & FLAG_INLINE_STRINGS) === 0) return null
  let offset = HEADER_BYTES
  for (let i = 0; i < 2; i++) {
    const length = readUvarint(data, offset)
    if (!length) return data.length - offset >= 10 ? null : 'more'
    offset += length.bytes + length.value
  }
  return offset
}

/** The offset of the first 16-byte-aligned build information magic in `binary`, or -1. */
export function findBuildInfo(binary: Buffer, from = 0): number {
  let at = binary.indexOf(BUILDINFO_MAGIC, from)
  while (at >= 0 && at % ALIGN !== 0) at = binary.indexOf(BUILDINFO_MAGIC, at + 1)
  return at
}

/** A uvarint-length-prefixed byte string at `offset`, and where the next field starts. */
function readBytes(data: Buffer, offset: number): { bytes: Buffer; end: number } | null {
  const length = readUvarint(data, offset)
  if (!length) return null
  const start = offset + length.bytes
  const end = start + length.value
  if (end > data.length) return null
  return { bytes: data.subarray(start, end), end }
}

/** The two strings of a binary's build information. */
export interface BuildInfo {
  /** The toolchain ("go1.22.1", "devel go1.23-abc…"). */
  goVersion: string
  /** The module list (`path`, `mod`, `dep`, `=>` and `build` lines), "" for a binary built outside a module. */
  modinfo: string
}

/**
 * The build information at the start of `data` (which starts at an aligned magic), or null when
 * what is there is not one: an older Go's pointer form, a damaged record, or the magic's bytes
 * occurring elsewhere in a binary (a program that reads build information holds them as a string).
 */
export function decodeBuildInfo(data: Buffer): BuildInfo | null {
  if (data.length < HEADER_BYTES || !data.subarray(0, BUILDINFO_MAGIC.length).equals(BUILDINFO_MAGIC)) return null
  if (((data[15] ?? 0) & FLAG_INLINE_STRINGS) === 0) return null
  const version = readBytes(data, HEADER_BYTES)
  const modinfo = version && readBytes(data, version.end)
  if (!version || !modinfo) return null
  const goVersion = version.bytes.toString('utf8')
  if (!/^(go\d|devel )/.test(goVersion)) return null
  // The sentinels are binary, so they are cut off as bytes before the text is decoded.
  const framed = modinfo.bytes
  const isFramed = framed.length >= 2 * SENTINEL_BYTES + 1 && framed[framed.length - SENTINEL_BYTES - 1] === 0x0a
  return { goVersion, modinfo: isFramed ? framed.toString('utf8', SENTINEL_BYTES, framed.length - SENTINEL_BYTES) : '' }
}

const isVersion = (version: string | undefined): version is string => !!version && version !== '(devel)'

/**
 * The components of decoded build information: `stdlib` at the toolchain's version (OSV's Go
 * advisories name the standard library so), the main module when it has a version (not
 * "(devel)"), and every `dep`. A dependency replaced by another module version (`=>` line with a
 * version) is reported as that replacement; one replaced by a local directory keeps its own path
 * and version, the closest name the local copy has.
 */
export function buildInfoComponents(path: string, info: BuildInfo): Component[] {
  const list = new ComponentList('Go', path)
  const toolchain = /^go(\d+)\.(\d+)(?:\.(\d+))?(?:\s|$)/.exec(info.goVersion)
  if (toolchain) list.add('stdlib', `${toolchain[1]}.${toolchain[2]}.${toolchain[3] ?? '0'}`)
  const modules: { path: string; version: string }[] = []
  for (const line of info.modinfo.split('\n')) {
    const [kind, modulePath, moduleVersion] = line.split('\t')
    if (!modulePath) continue
    if (kind === 'mod' || kind === 'dep') modules.push({ path: modulePath, version: moduleVersion ?? '' })
    else if (kind === '=>' && isVersion(moduleVersion) && modules.length > 0) {
      // A local directory replacement has no version ("" or "(devel)"); the required one stays.
      modules[modules.length - 1] = { path: modulePath, version: moduleVersion }
    }
  }
  for (const module of modules) {
    if (isVersion(module.version)) list.add(module.path, osvGoVersion(module.version))
  }
  return list.items
}

/**
 * The modules a Go binary (Go 1.18+) was built from, read from its embedded build information
 * (see buildInfoComponents). Anything else (not Go, older Go, damaged) gives [].
 */
export function goBuildInfo(path: string, binary: Buffer): Component[] {
  for (let at = findBuildInfo(binary); at >= 0; at = findBuildInfo(binary, at + 1)) {
    const info = decodeBuildInfo(binary.subarray(at))
    if (info) return buildInfoComponents(path, info)
  }
  return []
}
