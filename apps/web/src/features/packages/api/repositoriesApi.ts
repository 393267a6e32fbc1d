import { queryOptions } from '@tanstack/react-query'
import type { TreeResponse } from '@trove/contracts/artifacts'
import type { PackageTypeName } from '@trove/contracts/repositoryConstants'
import { apiRequest } from '../../../lib/api'

export interface RepositoryChoice {
  key: string
  packageType: PackageTypeName | undefined
}

/** The repositories the caller may read (the tree's top level), for the list's repository filter. */
export async function fetchReadableRepositories(): Promise<RepositoryChoice[]> {
  const out: RepositoryChoice[] = []
  let after: string | null = null
  for (let i = 0; i < 20; i++) {
    const page: TreeResponse = await apiRequest<TreeResponse>('/ui/artifacts/tree', {
      query: { after: after ?? undefined, limit: 1000 },
    })
    for (const n of page.nodes) if (n.rclass !== 'virtual') out.push({ key: n.repoKey, packageType: n.packageType })
    if (!page.next) break
    after = page.next
  }
  return out
}

export const readableRepositoriesQuery = () =>
  queryOptions({ queryKey: ['packages', 'repositories'], queryFn: fetchReadableRepositories, staleTime: 30_000 })
