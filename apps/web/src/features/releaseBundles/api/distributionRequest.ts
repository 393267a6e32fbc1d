import { DISTRIBUTION_UI } from '@trove/contracts/distribution'
import { apiRequest, isNotFound, type RequestOptions } from '../../../lib/api'

/**
 * A call under /distribution/api/ui, a sibling of the console's /ui/api/v1 (so sent as an absolute
 * path through the one fetch wrapper). `ownRefusals` is for calls whose 403 the screen explains
 * itself (a dialog showing the server's reason, the targets list that only administrators may
 * read): the app-wide "not authorized" notice would only repeat it, less precisely. Such a call
 * also leaves a lost session (401) to the screen; the next read sends the user to sign in.
 */
export function distributionRequest<T>(path: string, options: RequestOptions & { ownRefusals?: boolean } = {}): Promise<T> {
  const { ownRefusals, ...rest } = options
  return apiRequest<T>(`${DISTRIBUTION_UI}${path}`, { ...rest, absolute: true, handleAuthErrors: ownRefusals })
}

/** A bundle's address in a path: `/<name>/<version>`. */
export const bundlePath = (name: string, version: string) => `/${encodeURIComponent(name)}/${encodeURIComponent(version)}`

/** The node does not run the distribution module: every one of its calls answers 404 (§8). */
export const isModuleOff = isNotFound

/** Which side of distribution a bundle is listed from: made here, or received from another node. */
export type BundleOrigin = 'source' | 'target'
