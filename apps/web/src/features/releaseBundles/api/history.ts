import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { HistoryPage } from '@trove/contracts/distribution'
import { distributionRequest } from './distributionRequest'

/** Every page of the history: what a change that writes to it invalidates. */
export const historyKey = ['releaseBundles', 'history'] as const

/** GET /history?limit&offset: distributions, receptions, removals, recalls and retention on this node, newest first. */
export const getHistory = (limit: number, offset: number) =>
  distributionRequest<HistoryPage>('/history', { query: { limit, offset } })

export const historyQuery = (limit: number, offset: number) =>
  queryOptions({
    queryKey: [...historyKey, limit, offset],
    queryFn: () => getHistory(limit, offset),
    placeholderData: keepPreviousData,
  })
export const useHistory = (limit: number, offset: number) => useQuery(historyQuery(limit, offset))
