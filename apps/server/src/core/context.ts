import type { Config } from '../config.js'
import type { PrincipalResolver } from './access.js'
import type { Db } from './db.js'
import type { Authorizer } from './permissions.js'
import type { SecretBox } from './secretBox.js'

export interface BuildInfo {
  version: string
  revision: string
}

/** What every module receives: the config, the database, build info, the caller resolver and the secret box. */
export interface AppContext {
  config: Config
  db: Db
  build: BuildInfo
  principal: PrincipalResolver
  /** Encrypts secrets kept at rest (API keys, MFA secrets). */
  secrets: SecretBox
  /** Decides what a caller may do on a repository. */
  authz: Authorizer
}
