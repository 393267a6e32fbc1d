import zlib from 'node:zlib'
import tar from 'tar-stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'
import { arOf } from '../../test/zip.js'

/**
 * Hostile archives through the real upload paths of the formats whose own suites do not try them
 * (npm, PyPI, NuGet, Helm, Go, Composer and Cargo do): an entry that climbs out with `..`, an
 * absolute entry, a symbolic or hard link out of the tree, and a decompression bomb. Each is
 * refused with the format's error, and nothing is stored.
 */
let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp({ TROVE_ARCHIVE_MAX_EXPANDED: '4m' })
  admin = await signIn(t.fastify)
  await createRepo(t.fastify, admin, 'gems-local', { rclass: 'local', packageType: 'gems' })
  await createRepo(t.fastify, admin, 'debian-local', { rclass: 'local', packageType: 'debian' })
})
afterAll(() => t.close())

type Entry = { name: string; data?: Buffer; type?: 'file' | 'symlink' | 'link'; linkname?: string }

async function tarOf(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack()
  for (const e of entries) {
    if (e.type === 'symlink' || e.type === 'link') pack.entry({ name: e.name, type: e.type, linkname: e.linkname ?? '' })
    else pack.entry({ name: e.name }, e.data ?? Buffer.alloc(0))
  }
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const c of pack) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

/** The four kinds of hostile entry, beside what the format needs to be read at all. */
const HOSTILE: [string, Entry[], RegExp][] = [
  ['a climbing entry', [{ name: '../../evil', data: Buffer.from('x') }], /climbs out of the tree/],
  ['an absolute entry', [{ name: '/etc/cron.d/evil', data: Buffer.from('x') }], /absolute path/],
  [
    'a symbolic link out',
    [{ name: 'link', type: 'symlink', linkname: '../../../etc/passwd' }],
    /points out of the tree|absolute/,
  ],
  ['a hard link out', [{ name: 'hard', type: 'link', linkname: '../outside' }], /points out of the tree/],
  ['a bomb', [{ name: 'zeros', data: Buffer.alloc(16 * 1024 * 1024) }], /expands|decompression|larger than/],
]

const gemspec = zlib.gzipSync(
  '--- !ruby/object:Gem::Specification\nname: hostile\nversion: !ruby/object:Gem::Version\n  version: 1.0.0\nplatform: ruby\nsummary: x\n',
)

describe('a .gem', () => {
  it.each(HOSTILE)('with %s is refused and not stored', async (_what, entries, message) => {
    // A bomb needs compression to be one: a gem's outer tar is plain, so the bomb is its gzipped metadata.
    const bomb = entries[0]?.name === 'zeros'
    const metadata = bomb ? zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024)) : gemspec
    const gem = await tarOf([
      ...(bomb ? [] : entries),
      { name: 'metadata.gz', data: metadata },
      { name: 'data.tar.gz', data: zlib.gzipSync(await tarOf([])) },
    ])
    const res = await t.fastify.inject({
      method: 'POST',
      url: '/api/gems/gems-local/api/v1/gems',
      headers: sessionHeaders(admin),
      payload: gem,
    })
    expect(res.statusCode, res.body).toBe(422)
    expect(res.body).toMatch(/^Refused gem: /)
    expect(res.body).toMatch(bomb ? /metadata\.gz is not a gemspec/ : message)
    const stored = await t.app.db.kysely.selectFrom('files').select('path').where('repo_key', '=', 'gems-local').execute()
    expect(stored).toEqual([])
  })
})

const CONTROL = Buffer.from('Package: hostile\nVersion: 1.0\nArchitecture: all\nMaintainer: x <x@example.com>\nDescription: x\n')

describe('a .deb', () => {
  it.each(HOSTILE)('with %s in its control archive is refused and not stored', async (_what, entries, message) => {
    const control = zlib.gzipSync(await tarOf([...entries, { name: './control', data: CONTROL }]))
    const data = zlib.gzipSync(await tarOf([{ name: './usr/share/doc/hostile/README', data: Buffer.from('x') }]))
    const deb = arOf([
      ['debian-binary', Buffer.from('2.0\n')],
      ['control.tar.gz', control],
      ['data.tar.gz', data],
    ])
    const res = await t.fastify.inject({
      method: 'PUT',
      url: '/artifactory/debian-local/pool/hostile.deb;deb.distribution=bookworm',
      headers: sessionHeaders(admin),
      payload: deb,
    })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().errors[0].message).toMatch(message)
    const stored = await t.app.db.kysely.selectFrom('files').select('path').where('repo_key', '=', 'debian-local').execute()
    expect(stored).toEqual([])
  })
})
