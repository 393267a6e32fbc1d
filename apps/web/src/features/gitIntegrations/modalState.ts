import { type GitIntegration, type GitVendorName, gitVendor, GIT_INTEGRATION_LIMITS as L } from '@trove/contracts/gitIntegrations'
import { Messages } from '@trove/contracts/messages'

// The two-step git integration modal of packages-and-operations §4 as a reducer: the steps, the
// form, edit mode, loading, the connection test and its popover, and which action the button takes.

export type Step = 'createEdit' | 'selectService'
export type ModalAction = 'create' | 'update' | 'next'

export interface GitForm {
  integrationName: string
  userName: string
  token: string
  url: string
}

export interface ModalState {
  opened: boolean
  step: Step
  vendorName: GitVendorName | null
  form: GitForm
  /** The key of the integration being edited (edit mode), or null when creating. */
  editKey: string | null
  /** The saved URL and user name, to tell whether the credentials changed while editing. */
  saved: { url: string; userName: string } | null
  loading: boolean
  tested: boolean
  popover: string | null
  /** The integration just created, for the select-service step. */
  createdKey: string | null
}

export const EMPTY_FORM: GitForm = { integrationName: '', userName: '', token: '', url: '' }

export const initialModalState: ModalState = {
  opened: false,
  step: 'createEdit',
  vendorName: null,
  form: EMPTY_FORM,
  editKey: null,
  saved: null,
  loading: false,
  tested: false,
  popover: null,
  createdKey: null,
}

export type ModalEvent =
  | { type: 'open'; vendorName: GitVendorName; integration?: GitIntegration }
  | { type: 'close' }
  | { type: 'change'; field: keyof GitForm; value: string }
  | { type: 'testStarted' }
  | { type: 'testPassed'; vendorUser: string }
  | { type: 'testFailed' }
  | { type: 'resetTest' }
  | { type: 'hidePopover' }
  | { type: 'saveStarted' }
  | { type: 'created'; key: string }
  | { type: 'saveFailed' }

const CREDENTIAL_FIELDS: (keyof GitForm)[] = ['userName', 'token', 'url']

export function modalReducer(state: ModalState, event: ModalEvent): ModalState {
  switch (event.type) {
    case 'open': {
      const i = event.integration
      return {
        ...initialModalState,
        opened: true,
        vendorName: event.vendorName,
        form: i
          ? { integrationName: i.name, userName: i.username, token: '', url: i.url }
          : { ...EMPTY_FORM, url: defaultUrl(event.vendorName) },
        editKey: i?.key ?? null,
        saved: i ? { url: i.url, userName: i.username } : null,
      }
    }
    case 'close':
      // §4: closing or reset returns to create/edit and clears the form, edit mode, loading and the popover.
      return initialModalState
    case 'change': {
      const form = { ...state.form, [event.field]: event.value }
      const credentials = CREDENTIAL_FIELDS.includes(event.field)
      return { ...state, form, tested: credentials ? false : state.tested, popover: credentials ? null : state.popover }
    }
    case 'testStarted':
      return { ...state, loading: true, popover: null }
    case 'testPassed':
      return { ...state, loading: false, tested: true, popover: event.vendorUser }
    case 'testFailed':
      return { ...state, loading: false, tested: false, popover: null }
    case 'resetTest':
      return { ...state, tested: false, popover: null }
    case 'hidePopover':
      return { ...state, popover: null }
    case 'saveStarted':
      return { ...state, loading: true }
    case 'created':
      return { ...state, loading: false, step: 'selectService', createdKey: event.key, popover: null }
    case 'saveFailed':
      return { ...state, loading: false }
  }
}

function defaultUrl(vendorName: GitVendorName): string {
  return gitVendor(vendorName)?.defaultUrl ?? ''
}

/** §4: the modal's action is create, update or next. */
export function modalAction(state: ModalState): ModalAction {
  if (state.step === 'selectService') return 'next'
  return state.editKey ? 'update' : 'create'
}

/** True while editing with the saved credentials untouched: nothing new to test. */
export function credentialsUnchanged(state: ModalState): boolean {
  return Boolean(
    state.saved && !state.form.token && state.form.url === state.saved.url && state.form.userName === state.saved.userName,
  )
}

/** §5: the required-field messages, then Trove's own length and address rules. */
export function formErrors(state: ModalState): Partial<Record<keyof GitForm, string>> {
  const { form } = state
  const errors: Partial<Record<keyof GitForm, string>> = {}
  if (!form.integrationName.trim()) errors.integrationName = Messages.integrationNameRequired
  else if (form.integrationName.trim().length > L.integrationNameMax)
    errors.integrationName = `At most ${L.integrationNameMax} characters`
  if (!form.userName.trim()) errors.userName = Messages.userNameRequired
  else if (form.userName.trim().length > L.userNameMax) errors.userName = `At most ${L.userNameMax} characters`
  if (!form.token && !credentialsUnchanged(state)) errors.token = Messages.tokenRequired
  else if (form.token.length > L.tokenMax) errors.token = `At most ${L.tokenMax} characters`
  const url = form.url.trim()
  if (!url && !(state.vendorName && defaultUrl(state.vendorName))) errors.url = 'The address of the server is required'
  else if (url && !/^https?:\/\/[^\s/]+/i.test(url)) errors.url = 'An http:// or https:// address'
  else if (url.length > L.urlMax) errors.url = `At most ${L.urlMax} characters`
  return errors
}

export const isFormValid = (state: ModalState) => Object.keys(formErrors(state)).length === 0

/** §4: the test button shows unless editing with the saved credentials. */
export const testButtonVisible = (state: ModalState) => state.step === 'createEdit' && !credentialsUnchanged(state)

/** §4: Create (or Update) is disabled while the test button is visible and untested, or while the form is not valid. */
export const saveDisabled = (state: ModalState) =>
  state.loading || !isFormValid(state) || (testButtonVisible(state) && !state.tested)
