import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Footer } from '@trove/contracts/auth'
import { apiRequest } from '../../../lib/api'

export const getFooter = () => apiRequest<Footer>('/ui/auth/screen/footer')

export const footerQuery = () => queryOptions({ queryKey: ['auth', 'footer'], queryFn: getFooter, staleTime: 5 * 60_000 })

export const useFooter = () => useQuery(footerQuery())
