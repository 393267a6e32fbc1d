import {
  BUNDLE_NAME,
  BUNDLE_VERSION,
  type BundleSource,
  type CreateBundle,
  type UpdateBundle,
} from '@trove/contracts/distribution'
import { Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { ApiError } from '../../lib/api'

/** A source as the dialog edits it: every field a string (a query's properties one `key=value` a line). */
export type SourceDraft = { id: number } & (
  | { type: 'version'; repoKey: string; packageType: string; name: string; version: string }
  | { type: 'path'; repoKey: string; path: string }
  | { type: 'build'; name: string; number: string }
  | { type: 'query'; repoKey: string; path: string; properties: string }
)
export type SourceType = SourceDraft['type']
export type SourceField = 'repoKey' | 'packageType' | 'name' | 'version' | 'path' | 'number' | 'properties'

export interface BundleDraft {
  name: string
  version: string
  description: string
  releaseNotes: string
  sources: SourceDraft[]
}
export type BundleField = 'name' | 'version' | 'description' | 'releaseNotes' | 'sources'

/** What is wrong with a draft, by field and by source (its index), and what belongs to no field. */
export interface DraftErrors {
  fields: Partial<Record<BundleField, string>>
  sources: Record<number, Partial<Record<SourceField, string>>>
  other: string | null
}
export const noErrors = (): DraftErrors => ({ fields: {}, sources: {}, other: null })
export const hasErrors = (e: DraftErrors) =>
  Object.keys(e.fields).length > 0 || Object.keys(e.sources).length > 0 || e.other !== null

export const emptyDraft = (): BundleDraft => ({ name: '', version: '', description: '', releaseNotes: '', sources: [] })

/** Changes to an open bundle as the edit dialog holds them: its texts, sources to add, files to leave out. */
export interface EditDraft {
  description: string
  releaseNotes: string
  add: SourceDraft[]
  /** `<repoKey>/<path>` of the files to leave out */
  remove: string[]
}
export const editDraftOf = (b: { description: string; releaseNotes: string }): EditDraft => ({
  description: b.description,
  releaseNotes: b.releaseNotes,
  add: [],
  remove: [],
})

let nextId = 1
/** A new, empty source of a type. */
export function newSource<T extends SourceType>(type: T): Extract<SourceDraft, { type: T }> {
  const id = nextId++
  const empty: { [K in SourceType]: SourceDraft } = {
    version: { id, type: 'version', repoKey: '', packageType: '', name: '', version: '' },
    path: { id, type: 'path', repoKey: '', path: '' },
    build: { id, type: 'build', name: '', number: '' },
    query: { id, type: 'query', repoKey: '', path: '**', properties: '' },
  }
  return empty[type] as Extract<SourceDraft, { type: T }>
}

/** The fields a source of a type asks for, in the order the dialog shows them, and which are required. */
export const SOURCE_FIELDS: Record<SourceType, { field: SourceField; required: boolean }[]> = {
  version: [
    { field: 'repoKey', required: true },
    { field: 'packageType', required: true },
    { field: 'name', required: true },
    { field: 'version', required: true },
  ],
  path: [
    { field: 'repoKey', required: true },
    { field: 'path', required: false },
  ],
  build: [
    { field: 'name', required: true },
    { field: 'number', required: true },
  ],
  query: [
    { field: 'repoKey', required: true },
    { field: 'path', required: false },
    { field: 'properties', required: false },
  ],
}

const field = (s: SourceDraft, f: SourceField) => ((s as Record<string, unknown>)[f] as string | undefined) ?? ''

/** `key=value` lines as properties; a line without `=` is an error (returned as null). */
export function parseProperties(text: string): Record<string, string> | null {
  const out: Record<string, string> = {}
  for (const line of text.split('\n')) {
    const trimmed = line.trim()
    if (!trimmed) continue
    const eq = trimmed.indexOf('=')
    if (eq <= 0) return null
    out[trimmed.slice(0, eq).trim()] = trimmed.slice(eq + 1).trim()
  }
  return out
}

/** The dialog's own checks, before anything is sent. */
export function validateDraft(d: BundleDraft): DraftErrors {
  const e = noErrors()
  if (!d.name.trim()) e.fields.name = Messages.fieldMandatory
  else if (!BUNDLE_NAME.test(d.name.trim())) e.fields.name = ReleaseBundleMessages.bundleNameInvalid
  if (!d.version.trim()) e.fields.version = Messages.fieldMandatory
  else if (!BUNDLE_VERSION.test(d.version.trim())) e.fields.version = ReleaseBundleMessages.bundleVersionInvalid
  if (d.sources.length === 0) e.fields.sources = ReleaseBundleMessages.bundleNeedsSource
  e.sources = validateSources(d.sources)
  return e
}

/** The edit dialog's own checks: the sources added (nothing else is required). */
export function validateEdit(d: EditDraft): DraftErrors {
  return { ...noErrors(), sources: validateSources(d.add) }
}

function validateSources(sources: SourceDraft[]): DraftErrors['sources'] {
  const out: DraftErrors['sources'] = {}
  sources.forEach((s, i) => {
    const errors: Partial<Record<SourceField, string>> = {}
    for (const { field: f, required } of SOURCE_FIELDS[s.type]) {
      if (required && !field(s, f).trim()) errors[f] = Messages.fieldMandatory
    }
    if (s.type === 'query' && parseProperties(s.properties) === null)
      errors.properties = ReleaseBundleMessages.bundlePropertiesInvalid
    if (Object.keys(errors).length > 0) out[i] = errors
  })
  return out
}

function sourceBody(s: SourceDraft): BundleSource {
  switch (s.type) {
    case 'version':
      return {
        type: 'version',
        repoKey: s.repoKey.trim(),
        packageType: s.packageType.trim(),
        name: s.name.trim(),
        version: s.version.trim(),
      }
    case 'path':
      return { type: 'path', repoKey: s.repoKey.trim(), path: s.path.trim() }
    case 'build':
      return { type: 'build', name: s.name.trim(), number: s.number.trim() }
    case 'query':
      return {
        type: 'query',
        repoKey: s.repoKey.trim(),
        path: s.path.trim() || '**',
        properties: parseProperties(s.properties) ?? {},
      }
  }
}

/** The body of POST /release_bundles for a draft that passed `validateDraft`. */
export function toCreateBundle(d: BundleDraft): CreateBundle {
  return {
    name: d.name.trim(),
    version: d.version.trim(),
    description: d.description,
    releaseNotes: d.releaseNotes,
    sources: d.sources.map(sourceBody),
  }
}

/**
 * The body of PATCH /release_bundles/{name}/{version} for a draft that passed `validateEdit`: the
 * texts only when they changed (so a change made meanwhile by someone else is not written back), or
 * null when nothing changed at all.
 */
export function toUpdateBundle(d: EditDraft, before: { description: string; releaseNotes: string }): UpdateBundle | null {
  const body: UpdateBundle = { add: d.add.map(sourceBody), remove: d.remove }
  if (d.description !== before.description) body.description = d.description
  if (d.releaseNotes !== before.releaseNotes) body.releaseNotes = d.releaseNotes
  const changed = body.add.length > 0 || body.remove.length > 0 || 'description' in body || 'releaseNotes' in body
  return changed ? body : null
}

const BUNDLE_FIELDS: readonly string[] = ['name', 'version', 'description', 'releaseNotes']
const SOURCE_FIELD_NAMES: readonly string[] = ['repoKey', 'packageType', 'name', 'version', 'path', 'number', 'properties']

/**
 * The server's refusal read onto the dialog's fields. A 400 names them ("Invalid request:
 * body.name: …; body.sources.1.repoKey: …"); what names no field of the dialog, and every other
 * refusal (403, 404, 409), is `other`, shown in the dialog as the server said it. `sourcesAt` is
 * the body's list of sources: `sources` when creating, `add` when editing.
 */
export function serverErrors(error: unknown, sourcesAt: 'sources' | 'add' = 'sources'): DraftErrors {
  const e = noErrors()
  if (!(error instanceof ApiError)) {
    e.other = (error instanceof Error && error.message) || Messages.somethingWentWrong
    return e
  }
  if (error.status !== 400) {
    e.other = error.message || Messages.somethingWentWrong
    return e
  }
  const rest: string[] = []
  for (const part of error.message.replace(/^Invalid request: /, '').split('; ')) {
    const m = /^(?:body\.)?([A-Za-z]+)(?:\.(\d+)(?:\.([A-Za-z]+))?)?(?:\.[\w.]*)?: (.+)$/s.exec(part)
    const [, top, index, sub, message] = m ?? []
    if (top === sourcesAt && index !== undefined && sub && SOURCE_FIELD_NAMES.includes(sub) && message) {
      const i = Number(index)
      e.sources[i] = { ...e.sources[i], [sub]: message }
    } else if (top === sourcesAt && index === undefined && message) {
      e.fields.sources = message
    } else if (top && BUNDLE_FIELDS.includes(top) && index === undefined && message) {
      e.fields[top as BundleField] = message
    } else rest.push(part)
  }
  e.other = rest.length > 0 ? rest.join('; ') : null
  return e
}
