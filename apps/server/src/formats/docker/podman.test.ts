import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run } from '../../../test/clients.js'
import { writeOciImage } from '../../../test/ociImage.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

/**
 * Podman, the registry's second real client beside skopeo: login (a token as the password), push,
 * pull into a clean store, and the image's content read back. Podman keeps its images in a store of
 * its own (vfs: no kernel overlay needed) under the test's temp dir.
 */
describe('podman against the registry', () => {
  let t: TestApp
  let admin: Session
  let host: string
  let token: string
  let work: string

  const podman = (args: string[], store = 'store') =>
    run(
      'podman',
      [
        '--root',
        path.join(work, store, 'root'),
        '--runroot',
        path.join(work, store, 'run'),
        '--storage-driver',
        'vfs',
        '--cgroup-manager',
        'cgroupfs',
        '--events-backend',
        'none',
        ...args,
      ],
      { cwd: work, env: { HOME: work, REGISTRY_AUTH_FILE: path.join(work, 'auth.json'), XDG_RUNTIME_DIR: work } },
    )

  beforeAll(async () => {
    t = await createTestApp()
    host = (await listen(t.fastify)).replace('http://', '')
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-podman-')
    await createRepo(t.fastify, admin, 'docker-local', { rclass: 'local', packageType: 'docker' })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('logs in with a token, refuses a wrong one, pushes an image and pulls it into a clean store', async () => {
    const wrong = await podman(['login', '--tls-verify=false', '-u', 'admin', '-p', `${token}x`, host])
    expect(wrong.code).not.toBe(0)
    expect(wrong.stderr).toMatch(/401|unauthorized|invalid/i)
    const login = await podman(['login', '--tls-verify=false', '-u', 'admin', '-p', token, host])
    expect(login.code, login.stderr).toBe(0)

    const image = writeOciImage(path.join(work, 'image'), { content: 'hello from podman\n', tag: '1.0' })
    // An image built here, loaded into podman's store as an OCI archive and tagged for the registry.
    expect((await run('tar', ['-cf', path.join(work, 'image.tar'), '-C', image.layout, '.'], { cwd: work })).code).toBe(0)
    const loaded = await podman(['load', '-i', path.join(work, 'image.tar')])
    expect(loaded.code, loaded.stderr).toBe(0)
    const id = /([0-9a-f]{64})/.exec(loaded.stdout)?.[1] ?? (loaded.stdout.trim().split(/\s+/).pop() as string)
    expect((await podman(['tag', id, `${host}/docker-local/podman-hello:1.0`])).code).toBe(0)
    const pushed = await podman(['push', '--tls-verify=false', `${host}/docker-local/podman-hello:1.0`])
    expect(pushed.code, pushed.stderr).toBe(0)

    // The registry holds the image as pushed: its tag, and the layer's bytes under their digest.
    const tags = await fetch(`http://${host}/v2/docker-local/podman-hello/tags/list`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await tags.json()).toEqual({ name: 'docker-local/podman-hello', tags: ['1.0'] })

    // A clean store pulls it back, and the file in its layer is the one pushed.
    const back = await podman(['pull', '--tls-verify=false', `${host}/docker-local/podman-hello:1.0`], 'clean')
    expect(back.code, back.stderr).toBe(0)
    const saved = path.join(work, 'saved')
    const save = await podman(['save', '--format', 'oci-dir', '-o', saved, `${host}/docker-local/podman-hello:1.0`], 'clean')
    expect(save.code, save.stderr).toBe(0)
    const index = JSON.parse(fs.readFileSync(path.join(saved, 'index.json'), 'utf8'))
    const manifestDigest = (index.manifests[0].digest as string).replace('sha256:', '')
    const manifest = JSON.parse(fs.readFileSync(path.join(saved, 'blobs', 'sha256', manifestDigest), 'utf8'))
    const layer = path.join(saved, 'blobs', 'sha256', (manifest.layers[0].digest as string).replace('sha256:', ''))
    const listing = await run('tar', ['-xzOf', layer, 'hello.txt'], { cwd: work })
    expect(listing.stdout).toBe('hello from podman\n')

    // Logged out, the pull is refused.
    expect((await podman(['logout', host], 'clean')).code).toBe(0)
    const refused = await podman(['pull', '--tls-verify=false', `${host}/docker-local/podman-hello:1.0`], 'other')
    expect(refused.code).not.toBe(0)
  }, 180_000)
})
