import { Limits } from '@trove/contracts/limits'
import type { CreateBundleRequest, ServiceType, SupportBundle } from '@trove/contracts/operations'
import { useCallback, useEffect, useReducer, useRef } from 'react'
import { createBundle } from './api/bundles'
import { creationReducer, initialCreationState, noneCreating } from './rules/bundleCreation'

let placeholderSeq = 0

/**
 * The creation flow of spec §4: the service's counter goes up and a placeholder shows as in
 * progress; the create call is made; the counter goes down; when no service is still creating,
 * after 3000 ms the placeholders go and the list is reloaded.
 */
export function useBundleCreation(reload: () => void) {
  const [state, dispatch] = useReducer(creationReducer, initialCreationState)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const create = useCallback(async (service: ServiceType, request: CreateBundleRequest) => {
    clearTimeout(timer.current)
    const placeholder: SupportBundle = {
      id: `placeholder-${++placeholderSeq}`,
      name: request.name,
      description: request.description ?? '',
      service,
      node_id: '',
      create_date: Date.now(),
      status: 'in_progress',
      size: null,
      parameters: {
        configuration: true,
        system: true,
        logs: { include: true },
        thread_dump: request.parameters?.thread_dump ?? { count: 1, interval: 0 },
      },
    }
    dispatch({ type: 'start', placeholder })
    const created = await createBundle(service, request)
    dispatch({ type: 'finish', service })
    return created
  }, [])

  const idle = noneCreating(state) && state.placeholders.length > 0
  useEffect(() => {
    if (!idle) return
    timer.current = setTimeout(() => {
      dispatch({ type: 'clearPlaceholders' })
      reload()
    }, Limits.supportBundleRefreshMs)
    return () => clearTimeout(timer.current)
  }, [idle, reload])

  return { placeholders: state.placeholders, inProgress: state.inProgress, create }
}
