import { queryOptions, useQuery } from '@tanstack/react-query'
import type { MyAccess } from '@trove/contracts/access'
import { apiRequest } from '../../../lib/api'

/** What the signed-in user may administer: the console hides or disables the rest. */
export const getMyAccess = () => apiRequest<MyAccess>('/ui/access/me')
export const myAccessQuery = () => queryOptions({ queryKey: ['access', 'me'], queryFn: getMyAccess, staleTime: 30_000 })
export const useMyAccess = () => useQuery(myAccessQuery())
