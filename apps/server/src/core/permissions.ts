import type { Principal } from './access.js'

/** What a caller may do on a repository (and on what it holds). */
export type RepoAction = 'read' | 'annotate' | 'deploy' | 'delete' | 'manage'

/**
 * The one place that answers "may this caller do this on that repository". Every format handler
 * and every console call that touches repository content asks here; nothing checks on its own.
 */
export interface Authorizer {
  /** `principal` is null for an anonymous caller. */
  canOnRepo(principal: Principal | null, action: RepoAction, repoKey: string): Promise<boolean>
}

/**
 * The rule until permission targets exist: administrators may do anything, signed-in users may
 * read, annotate and deploy, anonymous callers nothing.
 */
export const baselineAuthorizer: Authorizer = {
  async canOnRepo(principal, action) {
    if (!principal) return false
    if (principal.admin) return true
    return action === 'read' || action === 'annotate' || action === 'deploy'
  },
}
