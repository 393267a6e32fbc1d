import { type ChildProcess, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run, skopeoPull, skopeoPush, writeFiles } from '../test/clients.js'
import { eventually, freePort } from '../test/cluster.js'
import { ADMIN_PASSWORD, ServerProcess, sha256 } from '../test/crash.js'
import { writeOciImage } from '../test/ociImage.js'
import { bucketKeys, s3Env, startS3, stopS3 } from '../test/s3.js'
import { tempDir, throwawayDatabase } from '../test/testApp.js'

/**
 * The scale-out deployment, whole: three nodes (the built server, each with a data dir of its own)
 * on one PostgreSQL database and one S3-compatible bucket (s3rver), behind haproxy run from the
 * configuration Trove generates for them (Admin → Configuration → Reverse proxy), round robin
 * without stickiness. A package published on one node installs through another; an image upload
 * whose requests go to different nodes completes, and skopeo pushes and pulls through the load
 * balancer; every node shows in service status; logs and support bundles are reached through any node; a node that stops is
 * left out by the health checks.
 */
const PG = process.env.TROVE_TEST_DATABASE_URL
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => fs.existsSync(p))
const HEARTBEAT_MS = 300

/** Quicker health checks than the generated 2 s, so the test sees a stopped node left out soon. */
const quickChecks = (config: string) => {
  expect(config).toMatch(/default-server check inter 2s/)
  return config.replace('default-server check inter 2s', 'default-server check inter 200ms')
}

/** Signs in as the first admin; the cookie and CSRF headers of what a browser then sends. */
async function signIn(url: string): Promise<{ cookie: string; 'x-csrf-token': string }> {
  const login = await fetch(`${url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
  })
  expect(login.status).toBe(200)
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  return { cookie, 'x-csrf-token': /trove_csrf=([^;]+)/.exec(cookie)?.[1] ?? '' }
}

describe.skipIf(!PG || !HAPROXY)('three nodes on PostgreSQL and S3 behind haproxy', () => {
  const key = crypto.randomBytes(32).toString('base64')
  const ids = ['a', 'b', 'c'] as const
  let s3dir: string
  let s3: Awaited<ReturnType<typeof startS3>>
  let dropDatabase: () => Promise<void>
  let nodes: ServerProcess[]
  let haproxy: ChildProcess
  let haproxyLog = ''
  let lb: string
  let token: string
  let work: string
  const auth = () => ({ authorization: `Bearer ${token}` })

  beforeAll(async () => {
    s3dir = tempDir('trove-s3-')
    s3 = await startS3(s3dir)
    const database = await throwawayDatabase()
    dropDatabase = database.drop
    const lbPort = await freePort()
    lb = `http://127.0.0.1:${lbPort}`
    nodes = ids.map((id) => new ServerProcess(tempDir(`trove-node-${id}-`), database.url))
    const ports = await Promise.all(ids.map(() => freePort()))
    const env = (id: string) => ({
      TROVE_NODE_ID: id,
      TROVE_PORT: String(ports[ids.indexOf(id as (typeof ids)[number])]),
      TROVE_MASTER_KEY: key,
      ...s3Env(s3.endpoint, 'three'),
      TROVE_HEARTBEAT_MS: String(HEARTBEAT_MS),
      TROVE_BASE_URL: lb,
      TROVE_TRUST_PROXY: 'true',
    })
    // The first migrates the database and makes the first administrator; the others join it.
    await nodes[0]?.start(env('a'))
    await Promise.all(nodes.slice(1).map((node, i) => node.start(env(ids[i + 1] as string))))

    // Trove writes the haproxy configuration (Admin → Configuration → Reverse proxy): node a's URL as
    // its internal URL, b and c as the other cluster nodes. It goes below a global section.
    const a = nodes[0] as ServerProcess
    const bootstrap = await signIn(a.url)
    const proxy = await fetch(`${a.url}/ui/api/v1/ui/admin/reverseProxies`, {
      method: 'POST',
      headers: { ...bootstrap, 'content-type': 'application/json' },
      body: JSON.stringify({
        key: 'cluster',
        webServerType: 'haproxy',
        serverName: '127.0.0.1',
        dockerReverseProxyMethod: 'REPOPATHPREFIX',
        reverseProxyRepositories: [],
        useHttp: true,
        useHttps: false,
        httpPort: lbPort,
        httpsPort: 443,
        sslCertificate: '',
        sslKey: '',
        upstreamUrl: a.url,
        clusterNodeUrls: nodes.slice(1).map((n) => n.url),
      }),
    })
    expect(proxy.status, await proxy.clone().text()).toBe(201)
    const generated = await fetch(`${a.url}/ui/api/v1/ui/admin/reverseProxies/cluster/haproxy`, { headers: bootstrap })
    expect(generated.status).toBe(200)
    const { config } = (await generated.json()) as { config: string }
    const file = path.join(s3dir, 'haproxy.cfg')
    fs.writeFileSync(file, `global\n    log stdout format raw local0\n\n${quickChecks(config)}`)
    haproxy = spawn(HAPROXY as string, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] })
    haproxy.stdout?.on('data', (d) => {
      haproxyLog += d
    })
    haproxy.stderr?.on('data', (d) => {
      haproxyLog += d
    })
    const up = await eventually(
      () =>
        fetch(`${lb}/api/system/ping`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      10_000,
    )
    expect(up, haproxyLog).toBe(200)

    // The session made on one node is good on the next (round robin): sessions live in the database.
    const session = await signIn(lb)
    const made = await fetch(`${lb}/ui/api/v1/ui/userIdentifyToken/admin`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: 86_400 }),
    })
    expect(made.status).toBe(200)
    token = ((await made.json()) as { access_token: string }).access_token
    work = tempDir('trove-three-npm-')
  }, 120_000)

  afterAll(async () => {
    haproxy?.kill('SIGTERM')
    await Promise.all((nodes ?? []).map((n) => n.stop()))
    await dropDatabase?.()
    if (s3) await stopS3(s3.server)
    for (const dir of [s3dir, work, ...(nodes ?? []).map((n) => n.dataDir)])
      if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const nodeStatuses = async () => {
    const res = await fetch(`${lb}/ui/api/v1/system/status/ha`, { headers: auth() })
    const body = (await res.json()) as { repository: { nodes: { node_id: string; status: string }[] } }
    return Object.fromEntries(body.repository.nodes.map((n) => [n.node_id, n.status]))
  }

  it('lists the three nodes in service status, asked through the load balancer', async () => {
    const statuses = await eventually(nodeStatuses, (s) => ids.every((id) => s[id] === 'Online'), 10_000)
    expect(statuses).toEqual({ a: 'Online', b: 'Online', c: 'Online' })
  })

  it('installs with npm through one node what npm published through another, the tarball in the bucket', async () => {
    const repo = await fetch(`${lb}/api/repositories/npm-local`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'npm' }),
    })
    expect(repo.status, await repo.text()).toBe(201)
    const npm = (args: string[], cwd: string, registry: string) => {
      fs.writeFileSync(path.join(cwd, '.npmrc'), `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${token}\n`)
      return run('npm', args, {
        cwd,
        env: {
          npm_config_userconfig: path.join(cwd, '.npmrc'),
          npm_config_cache: path.join(work, 'cache'),
          npm_config_audit: 'false',
          npm_config_fund: 'false',
          npm_config_update_notifier: 'false',
          npm_config_loglevel: 'warn',
        },
      })
    }
    const [a, b, c] = nodes as [ServerProcess, ServerProcess, ServerProcess]
    const pkg = writeFiles(path.join(work, 'pkg'), {
      'package.json': JSON.stringify({ name: 'three-nodes', version: '1.0.0', description: 'Published on a', license: 'MIT' }),
      'index.js': "module.exports = 'three'\n",
    })
    const published = await npm(['publish'], pkg, `${a.url}/api/npm/npm-local/`)
    expect(published.stderr).not.toMatch(/npm error/)
    expect(published.code).toBe(0)
    // The other nodes see the new version at once (the write's notification drops their caches).
    for (const node of [b, c]) {
      const packument = await fetch(`${node.url}/api/npm/npm-local/three-nodes`, { headers: auth() })
      expect(packument.status).toBe(200)
      expect(Object.keys(((await packument.json()) as { versions: object }).versions)).toEqual(['1.0.0'])
    }
    for (const [where, registry] of [
      ['b', `${b.url}/api/npm/npm-local/`],
      ['lb', `${lb}/api/npm/npm-local/`],
    ]) {
      const app = writeFiles(path.join(work, `app-${where}`), {
        'package.json': JSON.stringify({ name: `app-${where}`, version: '0.0.0', private: true }),
      })
      const installed = await npm(['install', 'three-nodes@1.0.0'], app, registry as string)
      expect(installed.stderr).not.toMatch(/npm error/)
      expect(installed.code).toBe(0)
      expect(fs.readFileSync(path.join(app, 'node_modules/three-nodes/index.js'), 'utf8')).toBe("module.exports = 'three'\n")
    }
    // The tarball is an object in the bucket; no node holds a blob file of its own.
    expect((await bucketKeys(s3.endpoint)).some((k) => k.startsWith('three/blobs/'))).toBe(true)
    for (const node of nodes) {
      const local = path.join(node.dataDir, 'blobs')
      const files = fs.existsSync(local)
        ? fs
            .readdirSync(local, { recursive: true, withFileTypes: true })
            .filter((e) => e.isFile() && !e.parentPath.includes('spool'))
        : []
      expect(files.map((f) => f.name)).toEqual([])
    }
  })

  it('takes a chunked image upload whose requests each go to another node, and skopeo through the load balancer', async () => {
    const repo = await fetch(`${lb}/api/repositories/docker-local`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'docker' }),
    })
    expect(repo.status, await repo.text()).toBe(201)
    const [a, b, c] = nodes as [ServerProcess, ServerProcess, ServerProcess]
    const octets = { ...auth(), 'content-type': 'application/octet-stream' }
    const data = crypto.randomBytes(3 * 1024 * 1024 + 17)
    const cut = [0, 1024 * 1024, 2 * 1024 * 1024, data.length]
    const started = await fetch(`${a.url}/v2/docker-local/chunks/blobs/uploads/`, { method: 'POST', headers: auth() })
    expect(started.status).toBe(202)
    const location = started.headers.get('location') as string
    for (const [i, node] of [b, c].entries()) {
      const from = cut[i] as number
      const to = cut[i + 1] as number
      const patched = await fetch(`${node.url}${location}`, {
        method: 'PATCH',
        headers: { ...octets, 'content-range': `${from}-${to - 1}` },
        body: new Uint8Array(data.subarray(from, to)),
      })
      expect(patched.status).toBe(202)
      expect(patched.headers.get('range')).toBe(`0-${to - 1}`)
    }
    const digest = `sha256:${sha256(data)}`
    const put = await fetch(`${a.url}${location}?digest=${digest}`, {
      method: 'PUT',
      headers: octets,
      body: new Uint8Array(data.subarray(cut[2])),
    })
    expect(put.status, await put.clone().text()).toBe(201)
    for (const node of nodes) {
      const blob = await fetch(`${node.url}/v2/docker-local/chunks/blobs/${digest}`, { headers: auth() })
      expect(blob.status).toBe(200)
      expect(sha256(Buffer.from(await blob.arrayBuffer()))).toBe(sha256(data))
    }

    // skopeo through the load balancer: its token from one node, each request on the next.
    const image = writeOciImage(work, { content: `three nodes ${Date.now()}\n`, tag: '1.0' })
    const where = `docker://${lb.replace('http://', '')}/docker-local/hello:1.0`
    const pushed = await skopeoPush(work, image.layout, where, `admin:${ADMIN_PASSWORD}`)
    expect(pushed.stderr).toBe('')
    expect(pushed.code).toBe(0)
    const back = path.join(work, 'back')
    const pulled = await skopeoPull(work, where, back, `admin:${ADMIN_PASSWORD}`)
    expect(pulled.stderr).toBe('')
    expect(pulled.code).toBe(0)
    expect(fs.readFileSync(path.join(back, 'blobs', 'sha256', sha256(image.layer)))).toEqual(image.layer)
    // Nothing of an upload is left in the bucket's temp prefix.
    expect((await bucketKeys(s3.endpoint)).filter((k) => k.startsWith('three/tmp/'))).toEqual([])
  })

  it("reads each node's logs and downloads a support bundle through the load balancer, whichever node answers", async () => {
    for (const id of ids) {
      const res = await fetch(`${lb}/ui/api/v1/system/logs/config/repository?nodeId=${id}`, { headers: auth() })
      expect(res.status, id).toBe(200)
      const logs = ((await res.json()) as { logs: string[] }).logs
      expect(logs, id).toContain('trove.log')
      const data = await fetch(`${lb}/ui/api/v1/system/logs/data/repository?nodeId=${id}&id=trove.log`, { headers: auth() })
      expect(data.status, id).toBe(200)
      // Each node's own file: its start names its data dir.
      const node = nodes[ids.indexOf(id)] as ServerProcess
      expect(((await data.json()) as { log_content: string }).log_content, id).toContain(JSON.stringify(node.dataDir))
    }

    const made = await fetch(`${lb}/ui/api/v1/ui/userSupport/generateBundle`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'three nodes', parameters: { system: true } }),
    })
    expect(made.status, await made.clone().text()).toBe(201)
    const id = ((await made.json()) as { id: string }).id
    const listed = await eventually(
      async () =>
        (await (await fetch(`${lb}/ui/api/v1/ui/userSupport/listBundles`, { headers: auth() })).json()) as {
          id: string
          status: string
        }[],
      (list) => list.find((b) => b.id === id)?.status === 'success',
      10_000,
    )
    expect(listed.find((b) => b.id === id)?.status).toBe('success')
    // Round robin: three downloads in a row are served by three different nodes, two of which
    // stream it from the one that wrote it.
    const bodies: Buffer[] = []
    for (let i = 0; i < 3; i++) {
      const download = await fetch(`${lb}/ui/api/v1/ui/userSupport/downloadBundle/${id}`, { headers: auth() })
      expect(download.status).toBe(200)
      bodies.push(Buffer.from(await download.arrayBuffer()))
    }
    expect(bodies[0]?.subarray(0, 2).toString()).toBe('PK')
    // haproxy's log says which node answered each download (a line once the answer is sent): all three did.
    const servedBy = async () =>
      new Set([...haproxyLog.matchAll(/\/(node\d) .*"GET \/ui\/api\/v1\/ui\/userSupport\/downloadBundle\//g)].map((m) => m[1]))
    expect((await eventually(servedBy, (nodes) => nodes.size === 3, 5000)).size, haproxyLog.slice(-2000)).toBe(3)
    expect(bodies.every((b) => b.equals(bodies[0] as Buffer))).toBe(true)
    const holders = nodes.filter((n) => fs.existsSync(path.join(n.dataDir, 'support', `${id}.zip`)))
    expect(holders).toHaveLength(1)
  })

  it('leaves out a node that stops: reads go on through the others, and service status shows it Offline', async () => {
    const c = nodes[2] as ServerProcess
    await c.stop()
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${lb}/api/npm/npm-local/three-nodes`, { headers: auth() })
      statuses.push(res.status)
      await res.arrayBuffer()
    }
    expect(
      statuses.every((s) => s === 200),
      statuses.join(' '),
    ).toBe(true)
    const after = await eventually(nodeStatuses, (s) => s.c === 'Offline', 15_000)
    expect(after).toEqual({ a: 'Online', b: 'Online', c: 'Offline' })
  })
})
