import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface ServerCredentials {
  accessToken: string
  refreshToken: string
  /** epoch ms */
  expiresAt: number
}

export interface CliConfig {
  current?: string
  servers: Record<string, ServerCredentials>
}

/** ~/.trove/config.json, or $TROVE_CONFIG_DIR/config.json; written with mode 0600: it holds tokens. */
export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.TROVE_CONFIG_DIR ?? path.join(os.homedir(), '.trove'), 'config.json')
}

export function readConfig(file = configFile()): CliConfig {
  if (!fs.existsSync(file)) return { servers: {} }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as CliConfig
}

export function writeConfig(config: CliConfig, file = configFile()): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const temp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
  fs.renameSync(temp, file)
}
