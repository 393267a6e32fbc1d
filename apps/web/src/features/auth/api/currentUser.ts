import { queryOptions, useQuery } from '@tanstack/react-query'
import type { UserData } from '@trove/contracts/auth'
import { apiRequest } from '../../../lib/api'

export const getCurrentUser = () => apiRequest<UserData>('/ui/auth/current')

export const currentUserQuery = () => queryOptions({ queryKey: ['auth', 'current'], queryFn: getCurrentUser, staleTime: 30_000 })

export const useCurrentUser = () => useQuery(currentUserQuery())
