import type { GitIntegration } from '@trove/contracts/gitIntegrations'
import { Messages } from '@trove/contracts/messages'
import { describe, expect, it } from 'vitest'
import {
  formErrors,
  initialModalState,
  type ModalEvent,
  modalAction,
  modalReducer,
  saveDisabled,
  testButtonVisible,
} from './modalState'

const run = (...events: ModalEvent[]) => events.reduce(modalReducer, initialModalState)
const filled: ModalEvent[] = [
  { type: 'open', vendorName: 'gitlab' },
  { type: 'change', field: 'integrationName', value: 'main' },
  { type: 'change', field: 'userName', value: 'ada' },
  { type: 'change', field: 'token', value: 'glpat-1' },
]
const saved: GitIntegration = {
  key: 'gitlab-abc',
  vendorName: 'gitlab',
  name: 'main',
  type: 'git',
  url: 'https://gitlab.example.com',
  username: 'ada',
  products: [],
  status: 'CONNECTED',
  statusMessage: null,
  checkedAt: 1,
}

describe('the git integration modal (§4)', () => {
  it('opens on a vendor at the create/edit step with the hosted address filled in', () => {
    const s = run({ type: 'open', vendorName: 'gitlab' })
    expect(s).toMatchObject({ opened: true, step: 'createEdit', vendorName: 'gitlab', editKey: null })
    expect(s.form.url).toBe('https://gitlab.com')
    expect(modalAction(s)).toBe('create')
  })

  it("names the spec's required fields", () => {
    const errors = formErrors(run({ type: 'open', vendorName: 'github' }))
    expect(errors).toEqual({
      integrationName: Messages.integrationNameRequired,
      userName: Messages.userNameRequired,
      token: Messages.tokenRequired,
    })
    expect(formErrors(run({ type: 'open', vendorName: 'bitbucketServer' })).url).toBeDefined()
    expect(formErrors(run(...filled, { type: 'change', field: 'url', value: 'ftp://x' })).url).toBe(
      'An http:// or https:// address',
    )
  })

  it('keeps Create disabled until the form is valid and the connection test passed', () => {
    expect(saveDisabled(run({ type: 'open', vendorName: 'gitlab' }))).toBe(true)
    const valid = run(...filled)
    expect(testButtonVisible(valid)).toBe(true)
    expect(saveDisabled(valid)).toBe(true)
    const tested = modalReducer(valid, { type: 'testPassed', vendorUser: 'ada' })
    expect(tested).toMatchObject({ tested: true, popover: 'ada', loading: false })
    expect(saveDisabled(tested)).toBe(false)
  })

  it('resets the test when a credential changes, or on demand, but not on a rename', () => {
    const tested = run(...filled, { type: 'testPassed', vendorUser: 'ada' })
    expect(modalReducer(tested, { type: 'change', field: 'integrationName', value: 'other' }).tested).toBe(true)
    for (const field of ['userName', 'token', 'url'] as const) {
      expect(modalReducer(tested, { type: 'change', field, value: 'x' })).toMatchObject({ tested: false, popover: null })
    }
    expect(modalReducer(tested, { type: 'resetTest' })).toMatchObject({ tested: false, popover: null })
    expect(modalReducer(tested, { type: 'testFailed' })).toMatchObject({ tested: false, loading: false })
  })

  it('moves to the select-service step after a create, where the action is next', () => {
    const s = run(
      ...filled,
      { type: 'testPassed', vendorUser: 'ada' },
      { type: 'saveStarted' },
      { type: 'created', key: 'gitlab-1' },
    )
    expect(s).toMatchObject({ step: 'selectService', createdKey: 'gitlab-1', loading: false, popover: null })
    expect(modalAction(s)).toBe('next')
  })

  it('returns to an empty create/edit step on close, clearing edit mode, loading and the popover', () => {
    const s = run(
      { type: 'open', vendorName: 'gitlab', integration: saved },
      { type: 'change', field: 'token', value: 't' },
      { type: 'testPassed', vendorUser: 'ada' },
      { type: 'saveStarted' },
      { type: 'close' },
    )
    expect(s).toEqual(initialModalState)
  })

  it('edits with the saved token: no test needed until a credential changes, and the action is update', () => {
    const s = run({ type: 'open', vendorName: 'gitlab', integration: saved })
    expect(s.form).toEqual({ integrationName: 'main', userName: 'ada', token: '', url: 'https://gitlab.example.com' })
    expect(modalAction(s)).toBe('update')
    expect(testButtonVisible(s)).toBe(false)
    expect(saveDisabled(s)).toBe(false)
    const moved = modalReducer(s, { type: 'change', field: 'url', value: 'https://elsewhere.example.com' })
    expect(testButtonVisible(moved)).toBe(true)
    expect(formErrors(moved).token).toBe(Messages.tokenRequired)
    expect(saveDisabled(moved)).toBe(true)
  })
})
