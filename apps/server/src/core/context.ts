import type { PrincipalResolver } from './access.js'
import type { ClusterIdentity } from './cluster.js'
import type { Config } from './config.js'
import type { Db } from './db.js'
import type { Authorizer } from './permissions.js'
import type { SecretBox } from './secretBox.js'

export interface BuildInfo {
  version: string
  revision: string
}

/** What every module receives: the config, the database, build info, the caller resolver, the secret box and the cluster. */
export interface AppContext {
  config: Config
  db: Db
  build: BuildInfo
  principal: PrincipalResolver
  /** Encrypts secrets kept at rest (API keys, MFA secrets). */
  secrets: SecretBox
  /** The cluster this node belongs to: its id and the key of calls between nodes. */
  cluster: ClusterIdentity
  /** Decides what a caller may do on a repository. */
  authz: Authorizer
}
