import fs from 'node:fs'
import path from 'node:path'
import { CI_NUMBER_VARIABLES, type CiId, ciScript, integrationGuide } from '@trove/contracts/integrationGuides'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createRepo, listen, run } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

/**
 * The integrations catalogue's CI guides: each CI tool's snippet carries the one shell script, and
 * that script, run by bash and curl as the CI would run it (a token in TROVE_TOKEN, the CI's
 * run-number variable set), uploads the file and publishes the build to a real Trove.
 */
describe('CI guides, run against a real Trove', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    work = tempDir('trove-ci-guide-')
    await createRepo(t.fastify, admin, 'ci-files', { rclass: 'local', packageType: 'generic' })
    // The guide's token step: a "Read and deploy" token for the pipeline.
    const created = await fetch(`${base}/ui/api/v1/ui/userIdentifyToken/admin`, {
      method: 'POST',
      headers: { ...sessionHeaders(admin), 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: 3600, scope: 'deploy', description: 'CI' }),
    })
    expect(created.status).toBe(200)
    token = ((await created.json()) as { access_token: string }).access_token
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  /** The script as each CI tool's file hands it to the shell. */
  const scriptIn = (id: CiId, text: string): string => {
    switch (id) {
      case 'ci-jenkins': {
        // A Groovy '''…''' string: backslashes are escapes, the lines keep their indentation.
        const body = /sh '''\n([\s\S]*?)\n\s*'''/.exec(text)?.[1] ?? ''
        return `${body
          .split('\n')
          .map((l) => l.replace(/^ {12}/, ''))
          .join('\n')
          .replaceAll('\\\\', '\\')}\n`
      }
      case 'ci-github-actions':
        return (parse(text) as { run: string }[])[0]?.run ?? ''
      case 'ci-gitlab':
        return (parse(text) as Record<string, { script: string[] }>)['publish-to-trove']?.script[0] ?? ''
      case 'ci-azure-pipelines':
        return (parse(text) as { script: string }[])[0]?.script ?? ''
    }
  }

  it.each(Object.keys(CI_NUMBER_VARIABLES) as CiId[])(
    '%s: the snippet holds the script, which uploads and publishes the build',
    async (id) => {
      const guide = integrationGuide(id, id, { baseUrl: base, user: 'admin' })
      const snippet = guide?.steps.find((s) => s.snippet)?.snippet
      expect(snippet?.text).toBeDefined()
      const variable = CI_NUMBER_VARIABLES[id]
      const script = ciScript({ baseUrl: base, user: 'admin' }, variable)
      expect(scriptIn(id, snippet?.text ?? '')).toBe(script)

      const dir = path.join(work, id)
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, 'app.tgz'), `built by ${id}\n`)
      const filled = script.replaceAll('<REPO>', 'ci-files').replaceAll('<FILE>', 'app.tgz').replaceAll('<BUILD>', `app-${id}`)
      const result = await run('bash', ['-euc', filled], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '/usr/bin', TROVE_USER: 'admin', TROVE_TOKEN: token, [variable]: '17' },
      })
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)

      const file = await fetch(`${base}/artifactory/ci-files/app-${id}/17/app.tgz`, { headers: sessionHeaders(admin) })
      expect(await file.text()).toBe(`built by ${id}\n`)
      const build = await fetch(`${base}/api/build/app-${id}/17`, { headers: sessionHeaders(admin) })
      expect(build.status).toBe(200)
      const info = (await build.json()) as { buildInfo: { modules: { artifacts: { name: string; sha1: string }[] }[] } }
      const artifact = info.buildInfo.modules[0]?.artifacts[0]
      expect(artifact?.name).toBe('app.tgz')
      expect(artifact?.sha1).toMatch(/^[0-9a-f]{40}$/)
    },
  )
})
