import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Runs the real `npm publish` in `dir` against `registry` with `token`, its settings and cache in
 * `work` only (the runner's own npm_config_* would override them).
 */
export function npmPublish(work: string, dir: string, registry: string, token: string) {
  fs.writeFileSync(path.join(work, '.npmrc'), `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${token}\n`)
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)))
  return spawnSync('npm', ['publish'], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...inherited,
      npm_config_userconfig: path.join(work, '.npmrc'),
      npm_config_cache: path.join(work, 'cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
  })
}
