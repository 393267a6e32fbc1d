import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import type { ReverseProxy } from '@trove/contracts/shell'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

// The generated configuration, run by a real nginx in front of a real Trove.
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p))

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

async function waitFor(url: string, init?: RequestInit): Promise<Response> {
  for (let i = 0; i < 100; i++) {
    try {
      return await fetch(url, init)
    } catch {
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  throw new Error(`${url} never answered`)
}

describe.skipIf(!NGINX)('the generated nginx configuration', () => {
  let t: TestApp
  let nginx: ChildProcess | undefined
  let proxyPort = 0
  const prefix = tempDir('trove-nginx-')

  beforeAll(async () => {
    t = await createTestApp()
    await t.fastify.listen({ port: 0, host: '127.0.0.1' })
    const trovePort = (t.fastify.server.address() as net.AddressInfo).port
    const admin = await signIn(t.fastify)
    proxyPort = await freePort()
    const proxy: ReverseProxy = {
      key: 'front',
      serverName: 'localhost',
      dockerReverseProxyMethod: 'REPOPATHPREFIX',
      reverseProxyRepositories: [],
      useHttp: true,
      useHttps: false,
      httpPort: proxyPort,
      httpsPort: 443,
      sslCertificate: '',
      sslKey: '',
      upstreamUrl: `http://127.0.0.1:${trovePort}`,
    }
    const created = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/reverseProxies',
      headers: sessionHeaders(admin),
      payload: proxy,
    })
    expect(created.statusCode).toBe(201)
    const generated = await t.fastify.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/admin/reverseProxies/front/nginx',
      headers: { cookie: admin.cookie },
    })
    fs.writeFileSync(path.join(prefix, 'trove.conf'), generated.json().config)
    // The admin copies the file into conf.d; here a minimal main configuration includes it.
    fs.mkdirSync(path.join(prefix, 'logs'))
    fs.writeFileSync(
      path.join(prefix, 'nginx.conf'),
      [
        'worker_processes 1;',
        `pid ${prefix}/nginx.pid;`,
        `error_log ${prefix}/logs/error.log warn;`,
        'events { worker_connections 64; }',
        'http {',
        `  access_log ${prefix}/logs/access.log;`,
        `  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;`,
        `  fastcgi_temp_path ${prefix}/fcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;`,
        `  include ${prefix}/trove.conf;`,
        '}',
      ].join('\n'),
    )
    const check = spawnSync(NGINX as string, ['-t', '-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { encoding: 'utf8' })
    expect(check.status, check.stderr).toBe(0)
    nginx = spawn(NGINX as string, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: 'ignore',
    })
    await waitFor(`http://127.0.0.1:${proxyPort}/api/system/ping`)
  })

  afterAll(async () => {
    nginx?.kill('SIGTERM')
    await t?.close()
    fs.rmSync(prefix, { recursive: true, force: true })
  })

  it('passes health checks and console calls through to Trove', async () => {
    const ping = await fetch(`http://127.0.0.1:${proxyPort}/api/system/ping`)
    expect(ping.status).toBe(200)
    expect(await ping.text()).toBe('OK')
    const version = await fetch(`http://127.0.0.1:${proxyPort}/ui/api/v1/ui/frontend/version`)
    expect(((await version.json()) as { version: string }).version).toBeTruthy()
  })

  it('signs in through the proxy: cookies and the CSRF check survive it', async () => {
    const base = `http://127.0.0.1:${proxyPort}`
    const login = await fetch(`${base}/ui/api/v1/ui/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'admin', password: 'correct-horse-battery', type: 'login' }),
    })
    expect(login.status).toBe(200)
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0] ?? '')
    const csrf = cookies.find((c) => c.startsWith('trove_csrf='))?.slice('trove_csrf='.length) ?? ''
    const saved = await fetch(`${base}/ui/api/v1/ui/localStorage`, {
      method: 'PUT',
      headers: { cookie: cookies.join('; '), 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ 'menu.application': '/packages' }),
    })
    expect(saved.status).toBe(204)
    const read = await fetch(`${base}/ui/api/v1/ui/localStorage`, { headers: { cookie: cookies.join('; ') } })
    expect(await read.json()).toEqual({ 'menu.application': '/packages' })
  })

  it('keeps redirects on the proxy’s address', async () => {
    const base = `http://127.0.0.1:${proxyPort}`
    const res = await fetch(`${base}/`, { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get('location') ?? '', base).href).toBe(`${base}/ui/`)
  })
})
