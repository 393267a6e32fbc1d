import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createRepo, listen, skopeo as skopeoIn } from '../../../test/clients.js'
import { writeOciImage } from '../../../test/ociImage.js'
import {
  ADMIN_PASSWORD,
  createTestApp,
  type Session,
  sessionHeaders,
  signIn,
  type TestApp,
  tempDir,
} from '../../../test/testApp.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')

/** A dpkg database as Debian 12 writes it: openssl's binaries come from the openssl source. */
const DPKG_STATUS = `Package: libssl3
Status: install ok installed
Architecture: amd64
Source: openssl
Version: 3.0.11-1~deb12u1

Package: openssl
Status: install ok installed
Architecture: amd64
Version: 3.0.11-1~deb12u1

Package: zlib1g
Status: install ok installed
Architecture: amd64
Source: zlib
Version: 1:1.2.13.dfsg-1

Package: removed-thing
Status: deinstall ok config-files
Version: 1.0
`
const OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n'

/** An image pushed with skopeo is scanned from its layers: its OS packages' advisories show. */
describe('image scans', () => {
  let t: TestApp
  let admin: Session
  let host: string
  let work: string
  const skopeo = (args: string[]) => skopeoIn(work, args)
  const push = async (dir: string, files: Record<string, string>, tag: string) => {
    const image = writeOciImage(path.join(work, dir), { content: '', tag, files })
    const res = await skopeo([
      'copy',
      '--dest-creds',
      `admin:${ADMIN_PASSWORD}`,
      '--dest-tls-verify=false',
      `oci:${image.layout}:${tag}`,
      `docker://${host}/docker-local/app:${tag}`,
    ])
    expect(res.code, res.stderr).toBe(0)
  }
  const summary = (version: string) =>
    t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/xray/ui/component/summary',
      headers: sessionHeaders(admin),
      payload: { package_id: 'docker://app', version },
    })

  beforeAll(async () => {
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    host = (await listen(t.fastify)).replace(/^http:\/\//, '')
    admin = await signIn(t.fastify)
    work = tempDir('trove-image-scan-')
    await createRepo(t.fastify, admin, 'docker-local', { rclass: 'local', packageType: 'docker' })
    const dsa = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'DSA-5532-1.json'), 'utf8'))
    const res = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/xray/ui/admin/database/import',
      headers: sessionHeaders(admin),
      payload: dsa,
    })
    expect(res.statusCode, res.body).toBe(200)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it("finds a Debian image's OS packages and the advisories of their source packages", async () => {
    await push('debian', { 'etc/os-release': OS_RELEASE, 'var/lib/dpkg/status': DPKG_STATUS }, '1.0')
    await t.app.scanner.idle()
    const res = await summary('1.0')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ state: 'scanned', os: 'debian 12', counts: { unknown: 1 } })
    const page = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/xray/ui/component/paginatedsearch?num_of_rows=20&page_num=1',
      headers: sessionHeaders(admin),
      payload: { package_id: 'docker://app', version: '1.0' },
    })
    // The openssl source package (its binaries libssl3 and openssl are one component) and its advisory.
    expect(page.json().data).toEqual([
      expect.objectContaining({
        advisory_id: 'DSA-5532-1',
        component: 'openssl',
        version: '3.0.11-1~deb12u1',
        path: 'var/lib/dpkg/status',
        fixed_versions: ['3.0.11-1~deb12u2'],
      }),
    ])
    expect(page.json().data[0].aliases).toContain('CVE-2023-5363')
  })

  it('finds nothing in the fixed version', async () => {
    await push(
      'fixed',
      { 'etc/os-release': OS_RELEASE, 'var/lib/dpkg/status': DPKG_STATUS.replaceAll('3.0.11-1~deb12u1', '3.0.11-1~deb12u2') },
      '1.1',
    )
    await t.app.scanner.idle()
    expect((await summary('1.1')).json()).toMatchObject({ state: 'scanned', counts: { unknown: 0, critical: 0 } })
  })

  it('scans an image a remote cached from a second Trove once its layers are fetched', async () => {
    const upstream = await createTestApp()
    try {
      const upBase = await listen(upstream.fastify)
      const upAdmin = await signIn(upstream.fastify)
      await createRepo(upstream.fastify, upAdmin, 'docker-local', { rclass: 'local', packageType: 'docker' })
      // A layer of its own: nothing of it is in this Trove's blob store before the remote fetches it.
      const files = { 'etc/os-release': OS_RELEASE, 'var/lib/dpkg/status': DPKG_STATUS, 'etc/hostname': 'upstream\n' }
      const image = writeOciImage(path.join(work, 'upstream'), { content: '', tag: '2.0', files })
      const seeded = await skopeo([
        'copy',
        '--dest-creds',
        `admin:${ADMIN_PASSWORD}`,
        '--dest-tls-verify=false',
        `oci:${image.layout}:2.0`,
        `docker://${upBase.replace(/^http:\/\//, '')}/docker-local/app:2.0`,
      ])
      expect(seeded.code, seeded.stderr).toBe(0)
      await createRepo(t.fastify, admin, 'docker-remote', {
        rclass: 'remote',
        packageType: 'docker',
        url: `${upBase}/docker-local`,
        username: 'admin',
        password: ADMIN_PASSWORD,
      })
      // The remote records the tag from its manifest; the layer it fetches next is scanned with it.
      const pulled = await skopeo([
        'copy',
        '--src-creds',
        `admin:${ADMIN_PASSWORD}`,
        '--src-tls-verify=false',
        `docker://${host}/docker-remote/app:2.0`,
        `oci:${path.join(work, 'pulled-remote')}:2.0`,
      ])
      expect(pulled.code, pulled.stderr).toBe(0)
      await vi.waitFor(
        async () => {
          await t.app.scanner.idle()
          expect((await summary('2.0')).json()).toMatchObject({ state: 'scanned', os: 'debian 12', counts: { unknown: 1 } })
        },
        { timeout: 15_000, interval: 250 },
      )
    } finally {
      await upstream.close()
    }
  })

  it("refuses a pull a policy blocks, naming the advisory in the registry's own error, and lets the fixed image through", async () => {
    const admin_ = (url: string, payload: object) =>
      t.fastify.inject({ method: 'POST', url: `/ui/api/v1/xray/ui/admin/${url}`, headers: sessionHeaders(admin), payload })
    expect(
      (await admin_('policies', { name: 'any-advisory', minSeverity: 'unknown', actions: { blockDownload: true } })).statusCode,
    ).toBe(201)
    expect(
      (await admin_('watches', { name: 'images', repositories: ['docker-local'], policies: ['any-advisory'] })).statusCode,
    ).toBe(201)
    const pull = (tag: string) =>
      skopeo([
        'copy',
        '--src-creds',
        `admin:${ADMIN_PASSWORD}`,
        '--src-tls-verify=false',
        `docker://${host}/docker-local/app:${tag}`,
        `oci:${path.join(work, `pulled-${tag}`)}:${tag}`,
      ])
    const blocked = await pull('1.0')
    expect(blocked.code).not.toBe(0)
    expect(blocked.stderr).toMatch(/denied/i)
    expect(blocked.stderr).toContain('DSA-5532-1')
    const fixed = await pull('1.1')
    expect(fixed.code, fixed.stderr).toBe(0)
  })
})
