import { BundleManifest } from '@trove/contracts/distribution'

/**
 * The canonical text of a manifest: JSON with every object's keys sorted and no spaces. The same
 * manifest always gives the same bytes, so the signature made over them verifies wherever the
 * manifest is read back.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('a manifest holds only finite numbers')
    return JSON.stringify(value) ?? 'null'
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

/** Reads a manifest a target received: it must parse, match the schema and be in canonical form. */
export function parseManifest(text: string): BundleManifest {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new Error('the manifest is not JSON')
  }
  const parsed = BundleManifest.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`the manifest is malformed: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`)
  }
  if (canonicalJson(raw) !== text) throw new Error('the manifest is not in canonical form')
  const m = parsed.data
  for (const f of m.files) {
    if (f.version !== null && !m.versions[f.version])
      throw new Error(`the manifest's file ${f.path} names version ${f.version}, which it lacks`)
    if (!/^[a-f0-9]{64}$/.test(f.sha256)) throw new Error(`the manifest's file ${f.path} has no sha256`)
    if (!m.repositories.some((r) => r.key === f.repoKey))
      throw new Error(`the manifest's file ${f.path} names repository ${f.repoKey}, which it lacks`)
  }
  return m
}

/** `1 file`, `2 files`: for the history's details. */
export const countFiles = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`
