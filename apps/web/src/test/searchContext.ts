import type { SearchContext } from '../features/search/searchTypes'

/** A plain signed-in user's search context on a PRO instance running only the artifact repository. */
export const searchContext = (over: Partial<SearchContext> = {}): SearchContext => ({
  admin: false,
  projectAdmin: false,
  tour: false,
  anonymous: false,
  services: new Set(['artifactory']),
  license: 'PRO',
  features: {},
  projectKey: null,
  scannerAnonymous: false,
  ...over,
})
