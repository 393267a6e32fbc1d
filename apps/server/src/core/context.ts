import type { Config } from '../config.js'
import type { PrincipalResolver } from './access.js'
import type { Db } from './db.js'

export interface BuildInfo {
  version: string
  revision: string
}

/** What every module receives: the config, the database, build info and the caller resolver. */
export interface AppContext {
  config: Config
  db: Db
  build: BuildInfo
  principal: PrincipalResolver
}
