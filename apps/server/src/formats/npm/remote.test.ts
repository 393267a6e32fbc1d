import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import zlib from 'node:zlib'
import tar from 'tar-stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

async function tarball(name: string, version: string, readme: string): Promise<Buffer> {
  const pack = tar.pack()
  pack.entry({ name: 'package/package.json' }, JSON.stringify({ name, version }))
  pack.entry({ name: 'package/README.md' }, readme)
  pack.entry({ name: 'package/index.js' }, `module.exports = '${version}'\n`)
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const c of pack) chunks.push(c as Buffer)
  return zlib.gzipSync(Buffer.concat(chunks))
}

/**
 * A remote npm repository in front of an upstream shaped like the public registry: the packument
 * names its maintainers and each version's publisher and time, and carries only the latest
 * version's readme. What Trove records of the versions it proxies is what the upstream says.
 */
describe('an npm remote in front of a registry-shaped upstream', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let work: string
  let upstream: http.Server
  const files = new Map<string, Buffer>()

  beforeAll(async () => {
    const url = await new Promise<string>((resolve) => {
      upstream = http.createServer((req, res) => {
        const body = files.get(req.url ?? '')
        if (!body) return res.writeHead(404).end('{}')
        res
          .writeHead(200, { 'content-type': req.url?.endsWith('.tgz') ? 'application/octet-stream' : 'application/json' })
          .end(body)
      })
      upstream.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`))
    })
    const versions: Record<string, unknown> = {}
    const time: Record<string, string> = { created: '2019-03-01T10:00:00.000Z', modified: '2021-06-01T10:00:00.000Z' }
    for (const [version, at] of [
      ['1.0.0', '2019-03-01T10:00:00.000Z'],
      ['2.0.0', '2021-06-01T10:00:00.000Z'],
    ] as const) {
      const file = `/shaped/-/shaped-${version}.tgz`
      files.set(file, await tarball('shaped', version, `# shaped ${version}\n\nThe readme of ${version}.\n`))
      versions[version] = {
        name: 'shaped',
        version,
        description: 'A package shaped like the registry’s',
        license: 'MIT',
        maintainers: [
          { name: 'alice', email: 'alice@example.org' },
          { name: 'bob', email: 'bob@example.org' },
        ],
        _npmUser: { name: 'alice', email: 'alice@example.org' },
        dist: { tarball: `${url}${file}` },
      }
      time[version] = at
    }
    files.set(
      '/shaped',
      Buffer.from(
        JSON.stringify({
          name: 'shaped',
          'dist-tags': { latest: '2.0.0' },
          maintainers: [{ name: 'alice', email: 'alice@example.org' }],
          readme: '# shaped 2.0.0\n\nThe readme of 2.0.0.\n',
          versions,
          time,
        }),
      ),
    )
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    const token = await accessToken(t.fastify, admin)
    work = tempDir('trove-npm-shaped-')
    await createRepo(t.fastify, admin, 'npm-shaped', { rclass: 'remote', packageType: 'npm', url })
    writeFiles(work, {
      '.npmrc': `registry=${base}/api/npm/npm-shaped/\n${base.replace(/^http:/, '')}/api/npm/npm-shaped/:_authToken=${token}\n`,
    })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    upstream?.close()
  })

  const npm = (args: string[], cwd: string) =>
    run('npm', args, {
      cwd,
      env: {
        npm_config_userconfig: path.join(work, '.npmrc'),
        npm_config_cache: path.join(work, 'cache'),
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
      },
    })

  it('keeps each proxied version’s readme from its tarball, and npm search shows the upstream’s publisher and date', async () => {
    for (const version of ['1.0.0', '2.0.0']) {
      const dir = writeFiles(path.join(work, `app-${version}`), {
        'package.json': JSON.stringify({ name: `app-${version}`, version: '1.0.0', private: true }),
      })
      const install = await npm(['install', `shaped@${version}`], dir)
      expect(install.code, install.stderr).toBe(0)
    }
    const browser = packagesBrowser(t.fastify, admin)
    expect(await browser.readme({ id: 'npm://shaped:1.0.0' })).toBe('# shaped 1.0.0\n\nThe readme of 1.0.0.\n')
    expect(await browser.readme({ id: 'npm://shaped:2.0.0' })).toBe('# shaped 2.0.0\n\nThe readme of 2.0.0.\n')

    const found = await npm(['search', 'shaped', '--json'], work)
    expect(found.code, found.stderr).toBe(0)
    const [hit] = JSON.parse(found.stdout) as {
      name: string
      version: string
      date: string
      publisher: { username: string }
      maintainers: { username: string }[]
    }[]
    expect(hit).toMatchObject({ name: 'shaped', version: '2.0.0', publisher: { username: 'alice' } })
    expect(hit?.maintainers.map((m) => m.username)).toEqual(['alice', 'bob'])
    expect(new Date(hit?.date ?? 0).toISOString()).toBe('2021-06-01T10:00:00.000Z')
  }, 60_000)
})
