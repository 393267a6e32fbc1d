import { queryOptions, useQuery } from '@tanstack/react-query'
import { Limits } from '@trove/contracts/limits'
import { format, Messages } from '@trove/contracts/messages'
import type { RetentionStatus } from '@trove/contracts/operations'
import { apiRequest, isNotFound } from '../../../lib/api'
import { notify } from '../../../lib/notify'

/** At most this many attempts in all (spec §9). */
export const RETENTION_MAX_ATTEMPTS = Limits.retentionMaxAttempts

export const getRetention = () => apiRequest<RetentionStatus>('/ui/bundle/retention/config/enable')

/**
 * Whether target bundle retention is on (spec §4, §8): 404 means the feature is off; any other
 * failure is tried again, up to 3 attempts in all, then the notification and false.
 */
export async function fetchRetentionEnabled(
  fetcher: () => Promise<RetentionStatus> = getRetention,
  onFailure: (message: string) => void = (message) => notify({ color: 'red', message }),
): Promise<boolean> {
  let last: unknown
  for (let attempt = 1; attempt <= RETENTION_MAX_ATTEMPTS; attempt++) {
    try {
      return (await fetcher()).enable
    } catch (error) {
      if (isNotFound(error)) return false
      last = error
    }
  }
  onFailure(
    format(Messages.retentionFetchFailed, { message: last instanceof Error ? last.message || 'unknown error' : String(last) }),
  )
  return false
}

/**
 * Only administrators ask (spec §6), and only while a node runs distribution; everyone else, and
 * an instance without distribution, is told false.
 */
export const retentionQuery = (ask: boolean) =>
  queryOptions({
    queryKey: ['operations', 'retention', ask],
    queryFn: () => (ask ? fetchRetentionEnabled() : Promise.resolve(false)),
    retry: false,
  })
export const useRetention = (ask: boolean) => useQuery(retentionQuery(ask))
