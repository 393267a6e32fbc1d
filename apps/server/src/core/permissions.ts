import type { Principal } from './access.js'

/** What a caller may do on a repository (and on what it holds). */
export type RepoAction = 'read' | 'annotate' | 'deploy' | 'delete' | 'manage'

/**
 * The one place that answers "may this caller do this on that resource". Every format handler
 * and every console call that touches repository content, builds or release bundles asks here;
 * nothing checks on its own.
 */
export interface Authorizer {
  /** `principal` is null for an anonymous caller. */
  canOnRepo(principal: Principal | null, action: RepoAction, repoKey: string): Promise<boolean>
  /** Builds, by build name. */
  canOnBuild(principal: Principal | null, action: RepoAction, buildName: string): Promise<boolean>
  /** Release bundles, by bundle name. */
  canOnReleaseBundle(principal: Principal | null, action: RepoAction, bundleName: string): Promise<boolean>
  /** Every action the caller holds on a repository (for "effective permissions" and for hiding buttons). */
  repoActions(principal: Principal | null, repoKey: string): Promise<RepoAction[]>
  /** The keys among `repoKeys` the caller may read, in the same order: lists filter through this. */
  readableRepoKeys(principal: Principal | null, repoKeys: readonly string[]): Promise<string[]>
  /** Forget cached decisions after a change to users, groups or permissions made outside the access module. */
  invalidate?(): void
  /** Keys of the projects a user administers (through a project role that manages members). */
  projectAdminOf(userId: number): Promise<string[]>
}

const ALL: RepoAction[] = ['read', 'annotate', 'deploy', 'delete', 'manage']

/**
 * A fixed rule for tools that run without the database's permission targets: administrators may
 * do anything, signed-in users may read, annotate and deploy, anonymous callers nothing. The
 * server itself uses the permission-target authorizer (identity/access/authorizer.ts).
 */
export const baselineAuthorizer: Authorizer = {
  async canOnRepo(principal, action) {
    return (await this.repoActions(principal, '')).includes(action)
  },
  async canOnBuild(principal, action) {
    return (await this.repoActions(principal, '')).includes(action)
  },
  async canOnReleaseBundle(principal, action) {
    return (await this.repoActions(principal, '')).includes(action)
  },
  async repoActions(principal) {
    if (!principal) return []
    return principal.admin ? ALL : ['read', 'annotate', 'deploy']
  },
  async readableRepoKeys(principal, keys) {
    return principal ? [...keys] : []
  },
  async projectAdminOf() {
    return []
  },
}
