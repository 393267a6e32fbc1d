import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { QuickCreateResponse } from '@trove/contracts/repositories'
import type { PackageTypeName } from '@trove/contracts/repositoryConstants'
import { apiRequest } from '../../../lib/api'
import { repositoriesQuery } from './listRepositories'

/** POST /ui/api/v1/ui/admin/repositories/quickCreate: the sample repositories of a package type. */
export const quickCreate = (input: { packageType: PackageTypeName; remoteUrl?: string }) =>
  apiRequest<QuickCreateResponse>('/ui/admin/repositories/quickCreate', { method: 'POST', body: input })

export function useQuickCreate() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: quickCreate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: repositoriesQuery().queryKey }),
  })
}
