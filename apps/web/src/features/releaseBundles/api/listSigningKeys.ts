import { queryOptions, useQuery } from '@tanstack/react-query'
import type { SigningKeys } from '@trove/contracts/distribution'
import { distributionRequest } from './distributionRequest'

/** GET /keys: this node's signing keys, the active one and those it signed with before (administrators). */
export const listSigningKeys = () => distributionRequest<SigningKeys>('/keys')
export const signingKeysQuery = () =>
  queryOptions({ queryKey: ['releaseBundles', 'keys'], queryFn: listSigningKeys, select: (d) => d.keys })
export const useSigningKeys = () => useQuery(signingKeysQuery())
