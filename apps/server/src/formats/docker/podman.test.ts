import fs from 'node:fs'
import path from 'node:path'
import type { RepoClassName } from '@trove/contracts/repositoryConstants'
import { setMeUpSnippets } from '@trove/contracts/setMeUp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run } from '../../../test/clients.js'
import { writeOciImage } from '../../../test/ociImage.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

/**
 * Podman, the registry's second real client beside skopeo, run with set-me-up's Podman lines: it
 * logs in (a token as the password) and pushes to a second Trove, and a clean store pulls the image
 * through the first Trove's virtual repository, whose remote member proxies the second. Podman keeps
 * its images in stores of the test's own (vfs: no kernel overlay needed): a `podman` on the PATH
 * adds the store options, so the snippet's lines run as shown.
 */
describe('podman against the registry', () => {
  let t: TestApp
  let upstream: TestApp
  let admin: Session
  let upAdmin: Session
  let base: string
  let upBase: string
  let token: string
  let upToken: string
  let work: string
  let bin: string

  const env = (store: string) => ({
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    PODMAN_STORE: path.join(work, store),
    HOME: work,
    REGISTRY_AUTH_FILE: path.join(work, 'auth.json'),
    XDG_RUNTIME_DIR: work,
  })
  const podman = (args: string[], store: string) => run(path.join(bin, 'podman'), args, { cwd: work, env: env(store) })
  /** Runs shown lines as a shell runs them, with only `<IMAGE>` and `<TAG>` filled in. */
  const shell = (text: string, store: string) =>
    run('bash', ['-euc', text.replaceAll('<IMAGE>', 'podman-hello').replaceAll('<TAG>', '1.0')], { cwd: work, env: env(store) })

  /** The Podman snippet as the set-me-up panel writes it for a repository of `app`. */
  const podmanSnippet = async (app: string, session: Session, repoKey: string, secret: string) => {
    const res = await fetch(`${app}/ui/api/v1/ui/setMeUp?repoKey=${repoKey}`, { headers: sessionHeaders(session) })
    expect(res.status).toBe(200)
    const info = (await res.json()) as { baseUrl: string; repository: { key: string; rclass: RepoClassName } }
    const snippets = setMeUpSnippets({
      baseUrl: info.baseUrl,
      repoKey: info.repository.key,
      packageType: 'docker',
      rclass: info.repository.rclass,
      user: 'admin',
      token: secret,
    })
    const found = snippets.find((s) => s.id === 'podman')
    if (!found) throw new Error(`no podman snippet: ${snippets.map((s) => s.id).join(', ')}`)
    return found.text
  }

  beforeAll(async () => {
    work = tempDir('trove-podman-')
    bin = path.join(work, 'bin')
    fs.mkdirSync(bin)
    const real = (await run('sh', ['-c', 'command -v podman'], { cwd: work })).stdout.trim()
    fs.writeFileSync(
      path.join(bin, 'podman'),
      `#!/bin/sh\nexec ${real} --root "$PODMAN_STORE/root" --runroot "$PODMAN_STORE/run" --storage-driver vfs --cgroup-manager cgroupfs --events-backend none "$@"\n`,
      { mode: 0o755 },
    )

    upstream = await createTestApp()
    upBase = await listen(upstream.fastify)
    upAdmin = await signIn(upstream.fastify)
    upToken = await accessToken(upstream.fastify, upAdmin)
    await createRepo(upstream.fastify, upAdmin, 'docker-local', { rclass: 'local', packageType: 'docker' })

    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    await createRepo(t.fastify, admin, 'docker-local', { rclass: 'local', packageType: 'docker' })
    await createRepo(t.fastify, admin, 'docker-remote', {
      rclass: 'remote',
      packageType: 'docker',
      url: `${upBase}/docker-local`,
      username: 'admin',
      password: upToken,
    })
    await createRepo(t.fastify, admin, 'docker-virtual', {
      rclass: 'virtual',
      packageType: 'docker',
      repositories: ['docker-local', 'docker-remote'],
      defaultDeploymentRepo: 'docker-local',
    })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await upstream?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it("refuses the snippet's login with a wrong token", async () => {
    const text = await podmanSnippet(upBase, upAdmin, 'docker-local', `${upToken}x`)
    const wrong = await shell(text.split('\n')[0] as string, 'publisher')
    expect(wrong.code).not.toBe(0)
    expect(wrong.stderr).toMatch(/401|unauthorized|invalid/i)
  })

  it("pushes to a second Trove with set-me-up's lines, and a clean store pulls through the virtual over its proxy", async () => {
    // An image built here, loaded into the publisher's store as an OCI archive and named as the lines expect.
    const image = writeOciImage(path.join(work, 'image'), { content: 'hello from podman\n', tag: '1.0' })
    expect((await run('tar', ['-cf', path.join(work, 'image.tar'), '-C', image.layout, '.'], { cwd: work })).code).toBe(0)
    const loaded = await podman(['load', '-i', path.join(work, 'image.tar')], 'publisher')
    expect(loaded.code, loaded.stderr).toBe(0)
    const id = /([0-9a-f]{64})/.exec(loaded.stdout)?.[1] ?? (loaded.stdout.trim().split(/\s+/).pop() as string)
    expect((await podman(['tag', id, 'podman-hello:1.0'], 'publisher')).code).toBe(0)

    // The second Trove's lines, all of them: login, tag, push, pull.
    const upHost = new URL(upBase).host
    const published = await podmanSnippet(upBase, upAdmin, 'docker-local', upToken)
    expect(published).toContain(`podman push --tls-verify=false ${upHost}/docker-local/<IMAGE>:<TAG>\n`)
    const pushed = await shell(published, 'publisher')
    expect(pushed.code, pushed.stderr).toBe(0)
    const tags = await fetch(`${upBase}/v2/docker-local/podman-hello/tags/list`, {
      headers: { authorization: `Bearer ${upToken}` },
    })
    expect(await tags.json()).toEqual({ name: 'docker-local/podman-hello', tags: ['1.0'] })

    // The first Trove's virtual: a consumer with a clean store logs in and pulls (it has nothing to push).
    const host = new URL(base).host
    const consumed = await podmanSnippet(base, admin, 'docker-virtual', token)
    const pullLines = consumed.split('\n').filter((line) => !/^podman (tag|push) /.test(line))
    expect(pullLines).toEqual([
      `echo '${token}' | podman login --tls-verify=false --username 'admin' --password-stdin ${host}`,
      `podman pull --tls-verify=false ${host}/docker-virtual/<IMAGE>:<TAG>`,
      '',
    ])
    const pulled = await shell(pullLines.join('\n'), 'consumer')
    expect(pulled.code, pulled.stderr).toBe(0)

    // The file in the pulled image's layer is the one pushed.
    const saved = path.join(work, 'saved')
    const save = await podman(['save', '--format', 'oci-dir', '-o', saved, `${host}/docker-virtual/podman-hello:1.0`], 'consumer')
    expect(save.code, save.stderr).toBe(0)
    const index = JSON.parse(fs.readFileSync(path.join(saved, 'index.json'), 'utf8'))
    const manifestDigest = (index.manifests[0].digest as string).replace('sha256:', '')
    const manifest = JSON.parse(fs.readFileSync(path.join(saved, 'blobs', 'sha256', manifestDigest), 'utf8'))
    const layer = path.join(saved, 'blobs', 'sha256', (manifest.layers[0].digest as string).replace('sha256:', ''))
    const listing = await run('tar', ['-xzOf', layer, 'hello.txt'], { cwd: work })
    expect(listing.stdout).toBe('hello from podman\n')

    // The packages browser shows the image the proxy cached. An image declares no readme, licences
    // or dependencies: Docker records none, and keeps its layers and the build steps that made them.
    const browser = packagesBrowser(t.fastify, admin)
    await browser.installSecurityLicense()
    expect(await browser.package('docker://podman-hello')).toMatchObject({
      name: 'podman-hello',
      packageType: 'docker',
      latestVersion: '1.0',
      description: '',
      licenses: [],
    })
    expect(await browser.readme({ id: 'docker://podman-hello:1.0' })).toBeNull()
    expect(await browser.dependencies('docker://podman-hello:1.0')).toEqual([])
    await browser.downloads('docker://podman-hello', 1)
    // The Docker Layers tab, asked for the tag's manifest in docker-remote, where the tag was cached.
    const layers = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/views/dockerv2',
      headers: sessionHeaders(admin),
      payload: { repoKey: 'docker-remote', path: 'podman-hello/1.0/manifest.json', view: 'dockerv2' },
    })
    expect(layers.statusCode, layers.body).toBe(200)
    expect(layers.json()).toMatchObject({
      tagInfo: { title: 'podman-hello:1.0', digest: `sha256:${manifestDigest}`, os: 'linux', architecture: 'amd64' },
      layers: [{ digest: manifest.layers[0].digest, command: 'COPY hello.txt /' }],
    })

    // Logged out, the pull is refused.
    expect((await podman(['logout', host], 'consumer')).code).toBe(0)
    const refused = await podman(['pull', '--tls-verify=false', `${host}/docker-virtual/podman-hello:1.0`], 'other')
    expect(refused.code).not.toBe(0)
  }, 180_000)
})
