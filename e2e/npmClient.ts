import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, type Page } from '@playwright/test'

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

/** What `publishAsAdmin` publishes, and where. */
export interface NpmPublication {
  registry: string
  /** Names the temporary directory the package is written to. */
  tmpPrefix: string
  /** Written as package.json. */
  manifest: { name: string; version: string; [field: string]: unknown }
  /** Written as index.js. */
  index: string
}

/**
 * Publishes a package with the real npm client as the signed-in admin (`headers` carry the page's
 * CSRF token): an hour's access token, a fresh temporary directory, and `npm publish` to
 * `registry`. Returns the token, for the calls that follow.
 */
export async function publishAsAdmin(
  page: Page,
  headers: Record<string, string>,
  { registry, tmpPrefix, manifest, index }: NpmPublication,
): Promise<string> {
  const tokenAnswer = await page.request.post('/ui/api/v1/ui/userIdentifyToken/admin', { headers, data: { expiresIn: 3600 } })
  expect(tokenAnswer.status()).toBe(200)
  const token = (await tokenAnswer.json()).access_token as string
  const work = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix))
  const dir = path.join(work, 'pkg')
  fs.mkdirSync(dir)
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest))
  fs.writeFileSync(path.join(dir, 'index.js'), index)
  const published = npmPublish(work, dir, registry, token)
  expect(published.status, published.stderr).toBe(0)
  return token
}
