import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { ADMIN_PASSWORD, createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

/** The API key (not only access tokens) works as the credential of real package clients. */
describe('the API key with package clients', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let apiKey: string
  let work: string

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-apikey-'))
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'pypi-local', { rclass: 'local', packageType: 'pypi' })
    await createRepo(t.fastify, admin, 'docker-local', { rclass: 'local', packageType: 'docker' })
    const created = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userApiKey',
      headers: {
        ...sessionHeaders(admin),
        authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
      },
    })
    expect(created.statusCode).toBe(200)
    apiKey = created.json().apiKey
    expect(apiKey).toMatch(/^trove_ak_/)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('npm: whoami and publish with the key as the auth token', async () => {
    const registry = `${base}/api/npm/npm-local/`
    const npmrc = path.join(work, '.npmrc')
    fs.writeFileSync(npmrc, `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${apiKey}\n`)
    const env = {
      npm_config_userconfig: npmrc,
      npm_config_cache: path.join(work, 'npm-cache'),
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    }
    const whoami = await run('npm', ['whoami'], { cwd: work, env })
    expect(whoami.stdout.trim()).toBe('admin')
    const pkg = path.join(work, 'keyed')
    writeFiles(pkg, { 'package.json': JSON.stringify({ name: 'keyed', version: '1.0.0' }), 'index.js': 'module.exports = 1\n' })
    const published = await run('npm', ['publish'], { cwd: pkg, env })
    expect(published.code, published.stderr).toBe(0)
    const packument = await t.fastify.inject({
      url: '/api/npm/npm-local/keyed',
      headers: { authorization: `Bearer ${apiKey}` },
    })
    expect(packument.statusCode).toBe(200)
    expect(Object.keys(packument.json().versions)).toEqual(['1.0.0'])

    // A wrong key is refused.
    fs.writeFileSync(npmrc, `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=trove_ak_${'x'.repeat(43)}\n`)
    expect((await run('npm', ['whoami'], { cwd: work, env })).code).not.toBe(0)
  }, 120_000)

  it('docker login (skopeo) with the user name and the key as the password', async () => {
    const host = base.replace('http://', '')
    const env = { HOME: work, REGISTRY_AUTH_FILE: path.join(work, 'auth.json') }
    const login = await run('skopeo', ['login', '--tls-verify=false', '-u', 'admin', '-p', apiKey, host], { cwd: work, env })
    expect(login.code, login.stderr).toBe(0)
    expect(login.stdout).toContain('Login Succeeded')
    const wrong = await run('skopeo', ['login', '--tls-verify=false', '-u', 'admin', '-p', `${apiKey}x`, host], {
      cwd: work,
      env,
    })
    expect(wrong.code).not.toBe(0)
  }, 60_000)

  it('twine: uploads with the user name and the key as the password', async () => {
    const file = path.join(work, 'keyed_py-1.0.tar.gz')
    // The smallest sdist twine accepts: a PKG-INFO inside <name>-<version>/.
    const src = path.join(work, 'sdist', 'keyed_py-1.0')
    writeFiles(src, { 'PKG-INFO': 'Metadata-Version: 2.1\nName: keyed-py\nVersion: 1.0\nSummary: keyed\n' })
    expect((await run('tar', ['-czf', file, '-C', path.join(work, 'sdist'), 'keyed_py-1.0'], { cwd: work })).code).toBe(0)
    const twine = (password: string) =>
      run(
        'twine',
        [
          'upload',
          '--non-interactive',
          '--disable-progress-bar',
          '--repository-url',
          `${base}/api/pypi/pypi-local/`,
          '-u',
          'admin',
          '-p',
          password,
          file,
        ],
        { cwd: work, env: { PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring', PYTHONWARNINGS: 'ignore' } },
      )
    const refused = await twine(`trove_ak_${'y'.repeat(43)}`)
    expect(refused.code).not.toBe(0)
    const uploaded = await twine(apiKey)
    expect(uploaded.code, uploaded.stdout + uploaded.stderr).toBe(0)
    const index = await t.fastify.inject({
      url: '/api/pypi/pypi-local/simple/keyed-py/',
      headers: { authorization: `Basic ${Buffer.from(`admin:${apiKey}`).toString('base64')}` },
    })
    expect(index.statusCode).toBe(200)
    expect(index.body).toContain('keyed_py-1.0.tar.gz')
  }, 60_000)
})
