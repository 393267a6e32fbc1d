import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

/** pnpm's own entry point, from this workspace's devDependencies (run with the node running the tests). */
const pnpmBin = path.join(path.dirname(createRequire(import.meta.url).resolve('pnpm')), 'bin/pnpm.cjs')

/** Packages published with the real npm client, installed with the real pnpm client. */
describe('npm repositories with the pnpm client', () => {
  let t: TestApp
  let admin: Session
  let registry: string
  let token: string
  let work: string
  const npmEnv = () => ({
    npm_config_userconfig: path.join(work, '.npmrc'),
    npm_config_cache: path.join(work, 'npm-cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'warn',
  })
  const db = () => t.app.db.kysely
  const downloads = async (name: string) =>
    Number((await db().selectFrom('packages').select('downloads').where('name', '=', name).executeTakeFirstOrThrow()).downloads)

  beforeAll(async () => {
    t = await createTestApp()
    const base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-pnpm-')
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    registry = `${base}/api/npm/npm-local/`
    fs.writeFileSync(path.join(work, '.npmrc'), `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${token}\n`)
    writeFiles(path.join(work, 'dep'), {
      'package.json': JSON.stringify({ name: 'pnpm-dep', version: '1.0.0', license: 'MIT', main: 'index.js' }),
      'index.js': "module.exports = 'from pnpm-dep'\n",
    })
    writeFiles(path.join(work, 'lib'), {
      'package.json': JSON.stringify({
        name: '@acme/pnpm-lib',
        version: '2.0.0',
        license: 'MIT',
        main: 'index.js',
        dependencies: { 'pnpm-dep': '^1.0.0' },
      }),
      'index.js': "module.exports = require('pnpm-dep') + ' via @acme/pnpm-lib'\n",
    })
    for (const dir of ['dep', 'lib']) {
      const published = await run('npm', ['publish', '--access', 'public'], { cwd: path.join(work, dir), env: npmEnv() })
      if (published.code !== 0) throw new Error(`npm publish ${dir}: ${published.stderr}`)
    }
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('installs a scoped package and its dependency, and counts the downloads', async () => {
    expect(await downloads('pnpm-dep')).toBe(0)
    expect(await downloads('@acme/pnpm-lib')).toBe(0)
    const app = writeFiles(path.join(work, 'app'), {
      'package.json': JSON.stringify({
        name: 'app',
        version: '1.0.0',
        private: true,
        dependencies: { '@acme/pnpm-lib': '^2.0.0' },
      }),
      // pnpm reads the registry and the token from the project's .npmrc.
      '.npmrc': fs.readFileSync(path.join(work, '.npmrc'), 'utf8'),
    })
    const install = await run(
      process.execPath,
      [
        pnpmBin,
        'install',
        '--store-dir',
        path.join(work, 'pnpm-store'),
        '--cache-dir',
        path.join(work, 'pnpm-cache'),
        '--config.update-notifier=false',
        '--reporter=append-only',
      ],
      { cwd: app, env: { npm_config_userconfig: path.join(work, 'no-user-npmrc') } },
    )
    expect(install.stderr).not.toMatch(/ERR_PNPM|ERROR/)
    expect(install.code).toBe(0)

    // pnpm's layout: the direct dependency linked at the top, everything in .pnpm.
    const top = path.join(app, 'node_modules/@acme/pnpm-lib')
    expect(fs.lstatSync(top).isSymbolicLink()).toBe(true)
    expect(fs.readFileSync(path.join(top, 'index.js'), 'utf8')).toContain('via @acme/pnpm-lib')
    const dep = path.join(app, 'node_modules/.pnpm/pnpm-dep@1.0.0/node_modules/pnpm-dep/index.js')
    expect(fs.readFileSync(dep, 'utf8')).toBe("module.exports = 'from pnpm-dep'\n")
    const loaded = await run(process.execPath, ['-e', "process.stdout.write(require('@acme/pnpm-lib'))"], { cwd: app })
    expect(loaded.stdout).toBe('from pnpm-dep via @acme/pnpm-lib')

    // The lockfile records the versions with the integrity Trove's packuments declared.
    const lock = fs.readFileSync(path.join(app, 'pnpm-lock.yaml'), 'utf8')
    expect(lock).toMatch(/pnpm-dep@1\.0\.0:\s*\n\s*resolution: \{integrity: sha512-/)
    expect(lock).toMatch(/'@acme\/pnpm-lib@2\.0\.0':/)

    // Each tarball pnpm fetched is one download of the file, the version and the package.
    await vi.waitFor(async () => {
      expect(await downloads('pnpm-dep')).toBe(1)
      expect(await downloads('@acme/pnpm-lib')).toBe(1)
    }, 3000)
    const files = await db()
      .selectFrom('files')
      .select(['path', 'download_count'])
      .where('repo_key', '=', 'npm-local')
      .orderBy('path')
      .execute()
    expect(files.map((f) => [f.path, Number(f.download_count)])).toEqual([
      ['@acme/pnpm-lib/-/pnpm-lib-2.0.0.tgz', 1],
      ['pnpm-dep/-/pnpm-dep-1.0.0.tgz', 1],
    ])
  })
})
