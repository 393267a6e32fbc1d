import { Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../lib/api'
import {
  editDraftOf,
  emptyDraft,
  newSource,
  parseProperties,
  serverErrors,
  toCreateBundle,
  toUpdateBundle,
  validateDraft,
  validateEdit,
} from './bundleForm'

describe('the new bundle form', () => {
  it('needs a name and version of the server’s shape, a source, and each source’s required fields', () => {
    const draft = {
      ...emptyDraft(),
      name: '-bad',
      version: '1.0',
      sources: [newSource('version'), { ...newSource('path'), repoKey: 'files' }],
    }
    const e = validateDraft(draft)
    expect(e.fields).toEqual({ name: ReleaseBundleMessages.bundleNameInvalid })
    expect(e.sources).toEqual({
      0: {
        repoKey: Messages.fieldMandatory,
        packageType: Messages.fieldMandatory,
        name: Messages.fieldMandatory,
        version: Messages.fieldMandatory,
      },
    })
    expect(validateDraft(emptyDraft()).fields).toEqual({
      name: Messages.fieldMandatory,
      version: Messages.fieldMandatory,
      sources: ReleaseBundleMessages.bundleNeedsSource,
    })
  })

  it('reads properties one key=value a line, and refuses a line without a key', () => {
    expect(parseProperties('a=1\n\n b = two=2 \n')).toEqual({ a: '1', b: 'two=2' })
    expect(parseProperties('=1')).toBeNull()
    expect(parseProperties('flag')).toBeNull()
    const query = { ...newSource('query'), repoKey: 'files', properties: 'flag' }
    expect(validateDraft({ ...emptyDraft(), name: 'a', version: '1', sources: [query] }).sources[0]).toEqual({
      properties: ReleaseBundleMessages.bundlePropertiesInvalid,
    })
  })

  it('trims what it sends, and a query without a pattern takes every path', () => {
    const body = toCreateBundle({
      ...emptyDraft(),
      name: ' shop ',
      version: '1.0 ',
      sources: [{ ...newSource('query'), repoKey: ' files ', path: ' ' }],
    })
    expect(body).toEqual({
      name: 'shop',
      version: '1.0',
      description: '',
      releaseNotes: '',
      sources: [{ type: 'query', repoKey: 'files', path: '**', properties: {} }],
    })
  })

  it('reads a 400 onto the fields and sources it names, and keeps the rest and other refusals whole', () => {
    const e = serverErrors(
      new ApiError(
        400,
        'Invalid request: body.name: too long; body.sources.2.repoKey: Too small; body.sources: Too big; body.other: x',
      ),
    )
    expect(e.fields).toEqual({ name: 'too long', sources: 'Too big' })
    expect(e.sources).toEqual({ 2: { repoKey: 'Too small' } })
    expect(e.other).toBe('body.other: x')
    expect(serverErrors(new ApiError(404, 'Repository nope not found'))).toMatchObject({
      fields: {},
      other: 'Repository nope not found',
    })
    expect(serverErrors(new ApiError(409, '')).other).toBe(Messages.somethingWentWrong)
  })

  it('edits send only the texts that changed, the sources added and the files left out; nothing when nothing changed', () => {
    const before = { description: 'The shop', releaseNotes: '# 1.0' }
    expect(toUpdateBundle(editDraftOf(before), before)).toBeNull()
    const draft = {
      ...editDraftOf(before),
      description: 'The new shop',
      add: [{ ...newSource('path'), repoKey: ' files ', path: 'docs' }],
      remove: ['npm-local/a.tgz'],
    }
    expect(toUpdateBundle(draft, before)).toEqual({
      description: 'The new shop',
      add: [{ type: 'path', repoKey: 'files', path: 'docs' }],
      remove: ['npm-local/a.tgz'],
    })
    expect(toUpdateBundle({ ...editDraftOf(before), releaseNotes: '' }, before)).toEqual({
      releaseNotes: '',
      add: [],
      remove: [],
    })
    expect(validateEdit({ ...draft, add: [newSource('build')] }).sources).toEqual({
      0: { name: Messages.fieldMandatory, number: Messages.fieldMandatory },
    })
  })

  it('reads an edit’s 400 about the sources added (body.add) onto them', () => {
    const e = serverErrors(
      new ApiError(400, 'Invalid request: body.add.1.repoKey: Too small; body.add: Too big; body.description: too long'),
      'add',
    )
    expect(e.sources).toEqual({ 1: { repoKey: 'Too small' } })
    expect(e.fields).toEqual({ sources: 'Too big', description: 'too long' })
    expect(e.other).toBeNull()
  })
})
