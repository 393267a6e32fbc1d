import { queryOptions, useQuery } from '@tanstack/react-query'
import type { TargetView } from '@trove/contracts/distribution'
import { distributionRequest } from './distributionRequest'

/**
 * GET /targets: the nodes bundles are distributed to. Only administrators may list them; the
 * distribute dialog explains a 403 itself.
 */
export const listTargets = () => distributionRequest<{ targets: TargetView[] }>('/targets', { ownRefusals: true })
export const targetsQuery = () =>
  queryOptions({ queryKey: ['releaseBundles', 'targets'], queryFn: listTargets, select: (d) => d.targets })
export const useTargets = (enabled = true) => useQuery({ ...targetsQuery(), enabled })
