// The foundation's and sign-in's figures: cold start, ping throughput, sign-in, authentication cost,
// login page JavaScript.
import http from 'node:http'
import autocannon from 'autocannon'
import { loginPageJavaScript } from './loginPageJs.mjs'
import { startServer } from './server.mjs'
import { median } from './stats.mjs'

/** @param {import('./stats.mjs').Row} row */
export async function benchFoundation(row) {
  // 1. Cold start to first successful ping, empty database (new data dir each time).
  const starts = []
  for (let i = 0; i < 5; i++) {
    const server = await startServer()
    starts.push(server.startMs)
    await server.stop()
  }
  const coldStart = median(starts)
  row(
    'cold start to first ping (empty db)',
    coldStart.toFixed(0),
    'ms',
    '< 1500',
    coldStart < 1500,
    `median of 5, max ${Math.max(...starts).toFixed(0)}`,
  )

  // 2. Ping throughput, 50 connections.
  const server = await startServer()
  try {
    const run = (duration) =>
      new Promise((resolve, reject) =>
        autocannon({ url: `${server.url}/api/system/ping`, connections: 50, duration }, (err, result) =>
          err ? reject(err) : resolve(result),
        ),
      )
    await run(2) // warm-up
    const result = await run(10)
    const rps = result.requests.average
    row(
      '/api/system/ping throughput',
      rps.toFixed(0),
      'req/s',
      '>= 15000',
      rps >= 15000 && result.non2xx === 0,
      `50 connections, 10 s; p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; errors ${result.errors + result.non2xx}`,
    )

    // 3. Password sign-in, argon2id included: sequential, so each figure is one sign-in's latency.
    const password = 'bench-admin-password'
    const signIn = await startServer({ TROVE_ADMIN_PASSWORD: password })
    try {
      const times = []
      for (let i = 0; i < 40; i++) {
        const started = performance.now()
        const res = await fetch(`${signIn.url}/ui/api/v1/ui/auth/login?_spring_security_remember_me=false`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user: 'admin', password, type: 'login' }),
        })
        if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`)
        await res.arrayBuffer()
        if (i >= 5) times.push(performance.now() - started)
      }
      const p50 = median(times)
      row('password sign-in (argon2id)', p50.toFixed(1), 'ms p50', '< 150', p50 < 150, `35 sequential sign-ins after 5 warm-up`)

      // 4. What authenticating a call costs: the same read anonymously and with a session or a token.
      const login = await fetch(`${signIn.url}/ui/api/v1/ui/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'admin', password, type: 'login' }),
      })
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
      const csrf = /trove_csrf=([^;]+)/.exec(cookie)?.[1] ?? ''
      const token = await (
        await fetch(`${signIn.url}/ui/api/v1/ui/userIdentifyToken/admin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
          body: JSON.stringify({ expiresIn: 3600 }),
        })
      ).json()
      // Sequential keep-alive requests, each timed: sub-millisecond differences need more resolution
      // than a load generator's histogram gives.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      const target = new URL(`${signIn.url}/ui/api/v1/ui/auth/current`)
      const once = (headers) =>
        new Promise((resolve, reject) => {
          const started = performance.now()
          const req = http.get(target, { agent, headers }, (res) => {
            res.resume()
            res.on('end', () => resolve(performance.now() - started))
          })
          req.on('error', reject)
        })
      const p50Of = async (headers, n) => {
        const times = []
        for (let i = 0; i < n; i++) times.push(await once(headers))
        return median(times)
      }
      await p50Of({}, 500) // warm-up
      const variants = { anonymous: {}, session: { cookie }, token: { authorization: `Bearer ${token.access_token}` } }
      const p50s = { anonymous: [], session: [], token: [] }
      // Interleave rounds so drift in the machine's load affects all three alike.
      for (let round = 0; round < 5; round++) {
        for (const [name, headers] of Object.entries(variants)) p50s[name].push(await p50Of(headers, 400))
      }
      const anonymous = median(p50s.anonymous)
      for (const name of ['session', 'token']) {
        const extra = median(p50s[name]) - anonymous
        row(
          `authenticated call overhead (${name})`,
          extra.toFixed(3),
          'ms p50',
          '< 1',
          extra < 1,
          `GET /ui/api/v1/ui/auth/current, sequential: ${anonymous.toFixed(3)} ms anonymous vs ${median(p50s[name]).toFixed(3)} ms`,
        )
      }
      agent.destroy()
    } finally {
      await signIn.stop()
    }

    // 5. What the login page makes the browser download.
    const js = await loginPageJavaScript(server.url)
    row('login page JavaScript (gzip)', js.gzipKB.toFixed(1), 'KB', '<= 150', js.gzipKB <= 150, `${js.files.length} files`)
  } finally {
    await server.stop()
  }
}
