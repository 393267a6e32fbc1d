import type { ServiceType, SupportBundle } from '@trove/contracts/operations'

/** The creation flow of spec §4: per-service in-progress counters and the placeholders shown meanwhile. */
export interface CreationState {
  inProgress: Partial<Record<ServiceType, number>>
  placeholders: SupportBundle[]
}

export const initialCreationState: CreationState = { inProgress: {}, placeholders: [] }

export type CreationAction =
  | { type: 'start'; placeholder: SupportBundle }
  | { type: 'finish'; service: ServiceType }
  | { type: 'clearPlaceholders' }

export function creationReducer(state: CreationState, action: CreationAction): CreationState {
  switch (action.type) {
    case 'start': {
      const service = action.placeholder.service
      return {
        inProgress: { ...state.inProgress, [service]: (state.inProgress[service] ?? 0) + 1 },
        placeholders: [action.placeholder, ...state.placeholders],
      }
    }
    case 'finish': {
      const n = Math.max(0, (state.inProgress[action.service] ?? 0) - 1)
      return { ...state, inProgress: { ...state.inProgress, [action.service]: n } }
    }
    case 'clearPlaceholders':
      return { ...state, placeholders: [] }
  }
}

/** True when no service is still creating: then, after the refresh delay, the list is reloaded. */
export const noneCreating = (state: CreationState) => Object.values(state.inProgress).every((n) => !n)
