import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run } from '../../../test/clients.js'
import { buildProject, CLIENT_ENV, PYTHON } from '../../../test/pypi.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const REQUESTS = 'GHSA-j8r2-6x86-q33q'

/** A PyPI project an advisory names, uploaded with twine: pip is refused it, and says which advisory. */
describe('a blocked download through pip', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  const ui = '/ui/api/v1/xray/ui'
  const pip = (requirement: string) =>
    run(
      PYTHON,
      [
        '-m',
        'pip',
        'install',
        '--no-deps',
        '--no-cache-dir',
        '--target',
        path.join(work, `target-${Date.now()}`),
        '--index-url',
        `${base.replace('http://', `http://__token__:${token}@`)}/api/pypi/pypi-local/simple/`,
        requirement,
      ],
      { cwd: work, env: CLIENT_ENV },
    )

  beforeAll(async () => {
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-pip-blocked-')
    await createRepo(t.fastify, admin, 'pypi-local', { rclass: 'local', packageType: 'pypi' })
    const advisory = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${REQUESTS}.json`), 'utf8'))
    const imported = await t.fastify.inject({
      method: 'POST',
      url: `${ui}/admin/database/import`,
      headers: sessionHeaders(admin),
      payload: [advisory],
    })
    expect(imported.statusCode, imported.body).toBe(200)
    // requests 2.30.0 is in the advisory's range (2.3.0 up to 2.31.0); 2.31.0 is the fix.
    for (const version of ['2.30.0', '2.31.0']) {
      const files = await buildProject(path.join(work, `requests-${version}`), 'requests', version)
      const wheel = files.filter((f) => f.endsWith('.whl'))
      const upload = await run(
        'twine',
        [
          'upload',
          '--non-interactive',
          '--disable-progress-bar',
          '--repository-url',
          `${base}/api/pypi/pypi-local`,
          '-u',
          '__token__',
          '-p',
          token,
          ...wheel,
        ],
        { cwd: work, env: CLIENT_ENV },
      )
      expect(upload.code, upload.stderr).toBe(0)
    }
    await t.app.scanner.idle()
    const policy = await t.fastify.inject({
      method: 'POST',
      url: `${ui}/admin/policies`,
      headers: sessionHeaders(admin),
      payload: { name: 'no-medium', minSeverity: 'medium', actions: { blockDownload: true } },
    })
    expect(policy.statusCode, policy.body).toBe(201)
    const watch = await t.fastify.inject({
      method: 'POST',
      url: `${ui}/admin/watches`,
      headers: sessionHeaders(admin),
      payload: { name: 'python', repositories: ['pypi-local'], policies: ['no-medium'] },
    })
    expect(watch.statusCode, watch.body).toBe(201)
  }, 120_000)
  afterAll(async () => {
    await t?.close()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it('refuses the affected version with 403, the advisory named in the reason pip prints', async () => {
    const install = await pip('requests==2.30.0')
    expect(install.code).not.toBe(0)
    expect(install.stderr).toMatch(/403/)
    expect(install.stderr).toContain(REQUESTS)
  })

  it('installs the fixed version', async () => {
    const install = await pip('requests==2.31.0')
    expect(install.code, install.stderr).toBe(0)
  })
})
