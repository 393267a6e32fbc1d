import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type net from 'node:net'
import path from 'node:path'
import type { ReverseProxy } from '@trove/contracts/shell'
import selfsigned from 'selfsigned'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../test/cluster.js'
import { createTestApp, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { haproxyConfig } from './haproxyConfig.js'

// The generated configuration, checked by a real haproxy (Debian's) and run in front of real Trove nodes.
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => fs.existsSync(p)) ?? ''

// What Debian's haproxy.cfg holds above the generated sections, less what needs root (chroot, user, daemon).
const GLOBAL = 'global\n    log stdout format raw local0\n'

/** `haproxy -c` on the generated file below a global section, as an admin's haproxy.cfg holds it. */
function check(dir: string, name: string, config: string) {
  const global = path.join(dir, 'global.cfg')
  const file = path.join(dir, `${name}.cfg`)
  fs.writeFileSync(global, GLOBAL)
  fs.writeFileSync(file, config)
  const result = spawnSync(HAPROXY, ['-c', '-f', global, '-f', file], { encoding: 'utf8' })
  return { files: [global, file], status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** A self-signed certificate and its key in one PEM file, as haproxy's `crt` takes it. */
async function pemFile(dir: string): Promise<string> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, algorithm: 'sha256' })
  const file = path.join(dir, 'trove.pem')
  fs.writeFileSync(file, `${pems.cert.trim()}\n${pems.private.trim()}\n`)
  return file
}

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/** One request on a connection of its own (so no keep-alive hides which node answers), any Host header, any certificate. */
function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const target = new URL(url)
  const options: https.RequestOptions = { method: init.method ?? 'GET', headers: init.headers, agent: false }
  return new Promise((resolve, reject) => {
    const onAnswer = (res: http.IncomingMessage) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    }
    const req =
      target.protocol === 'https:'
        ? https.request(target, { ...options, rejectUnauthorized: false }, onAnswer)
        : http.request(target, options, onAnswer)
    req.on('error', reject)
    req.end(init.body)
  })
}

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
}

/** Every request a node's HTTP server receives, as it arrives (before Trove routes it). */
function record(server: http.Server): Seen[] {
  const seen: Seen[] = []
  server.on('request', (req: http.IncomingMessage) =>
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers }),
  )
  return seen
}

const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`

/** haproxy in the foreground (`-db`), run from the generated file below a global section. */
class Haproxy {
  private child: ChildProcess | undefined
  output = ''

  constructor(readonly dir: string) {}

  async start(config: string, port: number): Promise<void> {
    const checked = check(this.dir, 'trove', config)
    expect(checked.status, checked.output).toBe(0)
    const child = spawn(HAPROXY, ['-db', ...checked.files.flatMap((f) => ['-f', f])], { stdio: ['ignore', 'pipe', 'pipe'] })
    this.child = child
    child.stdout?.on('data', (chunk) => {
      this.output += chunk
    })
    child.stderr?.on('data', (chunk) => {
      this.output += chunk
    })
    for (let i = 0; i < 100; i++) {
      try {
        if ((await send(`http://127.0.0.1:${port}/api/system/ping`)).status === 200) return
      } catch {}
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`haproxy never answered:\n${this.output}`)
  }

  /** Waits until haproxy says something matching `pattern` (a server going down or up) after `from` of its output. */
  async said(pattern: RegExp, from: number, timeoutMs = 20_000): Promise<string> {
    const until = Date.now() + timeoutMs
    while (Date.now() < until) {
      const line = this.output
        .slice(from)
        .split('\n')
        .find((l) => pattern.test(l))
      if (line) return line
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`haproxy never said ${pattern}:\n${this.output}`)
  }

  async stop(): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}

const base: ReverseProxy = {
  key: 'front',
  serverName: 'repo.example.org',
  dockerReverseProxyMethod: 'REPOPATHPREFIX',
  reverseProxyRepositories: [],
  useHttp: true,
  useHttps: false,
  httpPort: 80,
  httpsPort: 443,
  sslCertificate: '',
  sslKey: '',
  upstreamUrl: 'http://10.0.0.11:8080',
  webServerType: 'haproxy',
}

describe.skipIf(!HAPROXY)('the generated haproxy configuration', () => {
  const dir = tempDir('trove-haproxy-check-')
  let pem = ''

  beforeAll(async () => {
    pem = await pemFile(dir)
  })

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  const methods = ['SUBDOMAIN', 'REPOPATHPREFIX', 'PORTPERREPO'] as const
  const listens = [
    { name: 'HTTP', useHttp: true, useHttps: false },
    { name: 'HTTPS', useHttp: false, useHttps: true },
    { name: 'HTTP and HTTPS', useHttp: true, useHttps: true },
  ]
  const clusters = [
    { name: 'one node', clusterNodeUrls: [] },
    { name: 'three nodes', clusterNodeUrls: ['http://10.0.0.12:8080', 'http://10.0.0.13:8080'] },
  ]
  const cases = methods.flatMap((method) => listens.flatMap((listen) => clusters.map((cluster) => ({ method, listen, cluster }))))

  it.each(cases)('passes haproxy -c: $method, $listen.name, $cluster.name', ({ method, listen, cluster }) => {
    const proxy: ReverseProxy = {
      ...base,
      dockerReverseProxyMethod: method,
      reverseProxyRepositories: [
        { repoKey: 'docker-local', serverPort: 5001 },
        { repoKey: 'docker.remote', serverPort: 5002 },
      ],
      useHttp: listen.useHttp,
      useHttps: listen.useHttps,
      sslCertificate: pem,
      clusterNodeUrls: cluster.clusterNodeUrls,
    }
    const config = haproxyConfig(proxy, 'http://127.0.0.1:8080')
    const checked = check(dir, `${method}-${listen.useHttp}-${listen.useHttps}-${cluster.clusterNodeUrls.length}`, config)
    expect(checked.status, checked.output).toBe(0)
    expect(checked.output).not.toMatch(/WARNING|ALERT/)

    expect(config.match(/^ {4}bind .*$/gm)).toEqual([
      ...(listen.useHttp ? ['    bind :80'] : []),
      ...(listen.useHttps ? [`    bind :443 ssl crt ${pem} ssl-min-ver TLSv1.2`] : []),
      ...(method === 'PORTPERREPO'
        ? ['    bind :5001 # Docker repository docker-local', '    bind :5002 # Docker repository docker.remote']
        : []),
    ])
    const rewrites = config.match(/^ {4}http-request replace-path .*$/gm) ?? []
    expect(rewrites).toEqual(
      method === 'SUBDOMAIN'
        ? ['    http-request replace-path ^/v2/(.+)$ /v2/%[var(req.docker_repo)]/\\1 if docker_repo_host']
        : method === 'PORTPERREPO'
          ? [
              '    http-request replace-path ^/v2/(.+)$ /v2/docker-local/\\1 if { dst_port 5001 }',
              '    http-request replace-path ^/v2/(.+)$ /v2/docker.remote/\\1 if { dst_port 5002 }',
            ]
          : [],
    )
    const servers = config.match(/^ {4}server .*$/gm)
    expect(servers).toEqual(
      ['10.0.0.11:8080', ...cluster.clusterNodeUrls.map((u) => new URL(u).host)].map((a, i) => `    server node${i + 1} ${a}`),
    )
    expect(config).toContain('    option httpchk GET /api/system/ping\n    http-check expect status 200\n')
    expect(config).toContain('    balance leastconn\n')
    expect(config).not.toMatch(/stick|balance source|cookie/)
    if (cluster.clusterNodeUrls.length) {
      expect(config).toContain('    retry-on conn-failure empty-response\n')
      expect(config).toContain('    option redispatch 1\n')
      expect(config).toContain('    http-request disable-l7-retry if !METH_GET\n')
    } else {
      expect(config).not.toMatch(/retry-on|redispatch/)
    }
    // Trove's own 502 and 503 never count against a node.
    expect(config).not.toMatch(/retry-on .*(50[234]|response-timeout|all-retryable)/)
  })

  it('speaks TLS to a node at an https URL, checking its certificate', () => {
    const config = haproxyConfig({ ...base, upstreamUrl: 'https://127.0.0.1:8443' }, 'http://127.0.0.1:8080')
    expect(config).toContain('    server node1 127.0.0.1:8443 ssl verify required ca-file @system-ca\n')
    const checked = check(dir, 'tls-node', config)
    expect(checked.status, checked.output).toBe(0)
  })
})

describe.skipIf(!HAPROXY)('haproxy in front of two Trove nodes', () => {
  let a: TestApp
  let b: TestApp
  let seenA: Seen[] = []
  let seenB: Seen[] = []
  let httpPort = 0
  let httpsPort = 0
  const dir = tempDir('trove-haproxy-')
  const haproxy = new Haproxy(dir)
  const front = () => `http://127.0.0.1:${httpPort}`
  const seen = (url: string) => [...seenA, ...seenB].filter((s) => s.url === url)

  beforeAll(async () => {
    a = await createTestApp()
    b = await createTestApp()
    for (const t of [a, b]) await t.fastify.listen({ port: 0, host: '127.0.0.1' })
    seenA = record(a.fastify.server)
    seenB = record(b.fastify.server)
    const admin = await signIn(a.fastify)
    httpPort = await freePort()
    httpsPort = await freePort()
    const proxy: ReverseProxy = {
      ...base,
      serverName: 'localhost',
      dockerReverseProxyMethod: 'SUBDOMAIN',
      useHttps: true,
      httpPort,
      httpsPort,
      sslCertificate: await pemFile(dir),
      upstreamUrl: urlOf(a.fastify.server),
      clusterNodeUrls: [urlOf(b.fastify.server)],
    }
    const created = await a.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/reverseProxies',
      headers: sessionHeaders(admin),
      payload: proxy,
    })
    expect(created.statusCode).toBe(201)
    const generated = await a.fastify.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/admin/reverseProxies/front/haproxy',
      headers: { cookie: admin.cookie },
    })
    expect(generated.statusCode).toBe(200)
    await haproxy.start(generated.json().config, httpPort)
  })

  afterAll(async () => {
    await haproxy.stop()
    await a?.close()
    await b?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('passes a GET through to Trove with the X-Forwarded headers, and sends / to the console', async () => {
    const res = await send(`${front()}/ui/api/v1/ui/frontend/version?probe=http`)
    expect(res.status).toBe(200)
    expect((JSON.parse(res.body) as { version: string }).version).toBeTruthy()
    const [arrived] = seen('/ui/api/v1/ui/frontend/version?probe=http')
    expect(arrived?.headers).toMatchObject({
      host: `127.0.0.1:${httpPort}`,
      'x-forwarded-for': '127.0.0.1',
      'x-real-ip': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': `127.0.0.1:${httpPort}`,
      'x-forwarded-port': String(httpPort),
    })
    const root = await send(`${front()}/`)
    expect(root.status).toBe(302)
    expect(root.headers.location).toBe('/ui/')
  })

  it('answers HTTPS with the PEM file and tells Trove the request came over HTTPS', async () => {
    const res = await send(`https://127.0.0.1:${httpsPort}/ui/api/v1/ui/frontend/version?probe=https`)
    expect(res.status).toBe(200)
    const [arrived] = seen('/ui/api/v1/ui/frontend/version?probe=https')
    expect(arrived?.headers).toMatchObject({ 'x-forwarded-proto': 'https', 'x-forwarded-port': String(httpsPort) })
  })

  it('sends /v2 on a repository’s subdomain to that repository, and leaves the server name’s own /v2 alone', async () => {
    await send(`${front()}/v2/library/alpine/manifests/3.20`, { headers: { host: `docker-local.localhost:${httpPort}` } })
    expect(seen('/v2/docker-local/library/alpine/manifests/3.20')).toHaveLength(1)
    await send(`${front()}/v2/hello/manifests/1`, { headers: { host: 'Docker.Remote.LOCALHOST' } })
    expect(seen('/v2/docker.remote/hello/manifests/1')).toHaveLength(1)
    await send(`${front()}/v2/my-repo/hello/manifests/2`, { headers: { host: 'localhost' } })
    expect(seen('/v2/my-repo/hello/manifests/2')).toHaveLength(1)
    await send(`${front()}/v2/`, { headers: { host: 'docker-local.localhost' } })
    expect(seen('/v2/')).toHaveLength(1)
  })

  it('spreads requests over both nodes, with no stickiness', async () => {
    const urls = Array.from({ length: 10 }, (_, i) => `/ui/api/v1/ui/frontend/version?spread=${i}`)
    for (const url of urls) expect((await send(`${front()}${url}`)).status).toBe(200)
    const onA = seenA.filter((s) => urls.includes(s.url)).length
    const onB = seenB.filter((s) => urls.includes(s.url)).length
    expect(onA + onB).toBe(10)
    expect(onA).toBeGreaterThanOrEqual(4)
    expect(onB).toBeGreaterThanOrEqual(4)
  })

  it('leaves out a node taken down: its health check fails, and every request goes to the other node', async () => {
    const from = haproxy.output.length
    await b.stop()
    // No request is sent meanwhile: only the active check of GET /api/system/ping can see it.
    expect(await haproxy.said(/node2 is DOWN/, from)).toMatch(/Layer4 connection problem/)
    const urls = Array.from({ length: 6 }, (_, i) => `/ui/api/v1/ui/frontend/version?down=${i}`)
    for (const url of urls) expect((await send(`${front()}${url}`)).status).toBe(200)
    expect(seenA.filter((s) => urls.includes(s.url))).toHaveLength(6)
  }, 40_000)
})

/**
 * A node that answers its health check but drops every other request without a byte of answer, as
 * a node does when it dies in the middle of one: whether it did the work cannot be known.
 */
class DroppingNode {
  readonly seen: Seen[] = []
  pingStatus = 200
  readonly server = http.createServer((req, res) => {
    this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    if (req.url === '/api/system/ping') res.writeHead(this.pingStatus).end('OK')
    else req.socket.destroy()
  })

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }
}

describe.skipIf(!HAPROXY)('haproxy failover in front of a Trove node and a node that drops requests', () => {
  let a: TestApp
  let seenA: Seen[] = []
  const dropping = new DroppingNode()
  let httpPort = 0
  let repoPort = 0
  const dir = tempDir('trove-haproxy-failover-')
  const haproxy = new Haproxy(dir)
  const front = () => `http://127.0.0.1:${httpPort}`

  beforeAll(async () => {
    a = await createTestApp()
    await a.fastify.listen({ port: 0, host: '127.0.0.1' })
    seenA = record(a.fastify.server)
    await dropping.listen()
    httpPort = await freePort()
    repoPort = await freePort()
    const proxy: ReverseProxy = {
      ...base,
      serverName: 'localhost',
      dockerReverseProxyMethod: 'PORTPERREPO',
      reverseProxyRepositories: [{ repoKey: 'docker-local', serverPort: repoPort }],
      httpPort,
      upstreamUrl: urlOf(a.fastify.server),
      clusterNodeUrls: [urlOf(dropping.server)],
    }
    await haproxy.start(haproxyConfig(proxy, ''), httpPort)
  })

  afterAll(async () => {
    await haproxy.stop()
    await dropping.close()
    await a?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('moves a GET the node dropped to the other node, and never a write it may have done', async () => {
    const gets = Array.from({ length: 8 }, (_, i) => `/ui/api/v1/ui/frontend/version?get=${i}`)
    for (const url of gets) expect((await send(`${front()}${url}`)).status).toBe(200)
    // Each GET answered once by Trove, those the dropping node had taken among them.
    for (const url of gets) expect(seenA.filter((s) => s.url === url)).toHaveLength(1)
    expect(dropping.seen.filter((s) => gets.includes(s.url)).length).toBeGreaterThan(0)

    const posts = Array.from({ length: 8 }, (_, i) => `/ui/api/v1/ui/localStorage?post=${i}`)
    const statuses: number[] = []
    for (const url of posts) statuses.push((await send(`${front()}${url}`, { method: 'POST', body: '{}' })).status)
    posts.forEach((url, i) => {
      const dropped = dropping.seen.some((s) => s.method === 'POST' && s.url === url)
      const onTrove = seenA.filter((s) => s.url === url)
      // A POST the dropping node took fails with haproxy's 502 and never reaches Trove as well.
      expect({ url, status: statuses[i] === 502, onTrove: onTrove.length }).toEqual({
        url,
        status: dropped,
        onTrove: dropped ? 0 : 1,
      })
    })
    expect(dropping.seen.some((s) => s.method === 'POST')).toBe(true)
  })

  it('takes a node out while GET /api/system/ping does not answer 200, and back once it does', async () => {
    const round = async (name: string) => {
      const urls = Array.from({ length: 6 }, (_, i) => `/ui/api/v1/ui/frontend/version?${name}=${i}`)
      for (const url of urls) expect((await send(`${front()}${url}`)).status).toBe(200)
      return dropping.seen.filter((s) => urls.includes(s.url)).length
    }
    const down = haproxy.output.length
    dropping.pingStatus = 503
    expect(await haproxy.said(/node2 is DOWN/, down)).toMatch(/Layer7 wrong status.*503/)
    expect(await round('out')).toBe(0)
    const up = haproxy.output.length
    dropping.pingStatus = 200
    await haproxy.said(/node2 is UP/, up)
    expect(await round('back')).toBeGreaterThan(0)
    expect(dropping.seen.filter((s) => s.url === '/api/system/ping').every((s) => s.method === 'GET')).toBe(true)
  }, 40_000)

  it('sends /v2 on a repository’s own port to that repository', async () => {
    const res = await send(`http://127.0.0.1:${repoPort}/v2/library/alpine/manifests/3.20`)
    expect(res.status).not.toBe(502)
    expect(seenA.filter((s) => s.url === '/v2/docker-local/library/alpine/manifests/3.20')).toHaveLength(1)
  })
})
