import type { QueryClient } from '@tanstack/react-query'
import { bundleDetailsKey } from './bundleDetails'
import { historyKey } from './history'
import { bundleListsKey } from './listBundles'

/** After a change to a bundle: its lists, details and the history (which records the change) are read again. */
export const invalidateBundles = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: bundleListsKey }),
    queryClient.invalidateQueries({ queryKey: bundleDetailsKey }),
    queryClient.invalidateQueries({ queryKey: historyKey }),
  ])
