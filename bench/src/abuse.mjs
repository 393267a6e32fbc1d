// Sign-in abuse: a password-guessing script's 1,000 attempts against the real server (throttle.ts:
// a name locks for one address after its 5th attempt, an address after its 20th, a name everywhere
// after its 100th; sent one by one, and 200 at once), and the timing of an
// unknown user's answer against a wrong password's over 1,000 attempts, neither throttled.
import { signInAdmin, startServer } from './server.mjs'
import { median, percentile } from './stats.mjs'

const ADMIN_PASSWORD = 'bench-admin-password'
const ATTEMPTS = 1000
/** Known users for the timing run: each takes two wrong passwords, below the throttle's first delay. */
const KNOWN = ATTEMPTS / 4

/** An address per number, as a trusted proxy would report callers. */
const address = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`

/** One sign-in attempt from `ip`: its status and how long the answer took (ms). */
async function attempt(url, user, password, ip) {
  const started = performance.now()
  const res = await fetch(`${url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ user, password, type: 'login' }),
  })
  await res.arrayBuffer()
  return { status: res.status, ms: performance.now() - started }
}

/** Runs a script of ATTEMPTS; answers how many got each status and how long the script took. */
async function script(url, pick) {
  const counts = {}
  const started = performance.now()
  for (let i = 0; i < ATTEMPTS; i++) {
    const { user, ip } = pick(i)
    const { status } = await attempt(url, user, `guess-${i}`, ip)
    counts[status] = (counts[status] ?? 0) + 1
  }
  return { counts, seconds: (performance.now() - started) / 1000 }
}

/** @param {import('./stats.mjs').Row} row */
export async function benchAbuse(row) {
  // Trusting the proxy headers lets the bench speak from many addresses, as a botnet would.
  const server = await startServer({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD, TROVE_TRUST_PROXY: 'true' })
  try {
    const admin = await signInAdmin(server.url, ADMIN_PASSWORD)
    let next = 1
    const fresh = () => address(next++)

    const scripts = [
      ['one address, one user', 'locks after 5', 5, (_i, ip) => ({ user: 'admin', ip })],
      ['one address, 1,000 names', 'locks after 20', 20, (i, ip) => ({ user: `guess-${i}`, ip })],
      ['1,000 addresses, one name', 'locks after 100', 100, () => ({ user: 'victim', ip: fresh() })],
    ]
    for (const [name, target, allowed, pick] of scripts) {
      const ip = fresh()
      const { counts, seconds } = await script(server.url, (i) => pick(i, ip))
      const checked = counts[401] ?? 0
      row(
        `guessing: ${name}`,
        String(checked),
        `of ${ATTEMPTS} checked`,
        target,
        checked === allowed && (counts[403] ?? 0) === ATTEMPTS - allowed,
        `${counts[403] ?? 0} refused unchecked (403), ${seconds.toFixed(1)} s for the script`,
      )
    }

    // 200 at once for one name from one address, the right password among them.
    {
      const ip = fresh()
      const statuses = await Promise.all(
        Array.from({ length: 200 }, (_, i) => attempt(server.url, 'admin', i === 150 ? ADMIN_PASSWORD : `burst-${i}`, ip)),
      )
      const checked = statuses.filter((s) => s.status !== 403).length
      row(
        'guessing: 200 at once, one address, one name',
        String(checked),
        'of 200 checked',
        '≤ 5',
        checked <= 5,
        'the right password was the 151st sent',
      )
    }

    // Known users to be wrong about; then unknown names and wrong passwords, interleaved, each from
    // a fresh address and each name failing at most twice, so no throttle delay takes part.
    for (let u = 0; u < KNOWN; u++) {
      const res = await fetch(`${server.url}/ui/api/v1/ui/admin/users`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: `known-${u}`, password: `known-password-${u}`, email: `known${u}@example.org` }),
      })
      if (res.status !== 201) throw new Error(`user not created: ${res.status}`)
    }
    const times = { unknown: [], wrong: [] }
    for (let i = 0; i < ATTEMPTS / 2; i++) {
      const unknown = await attempt(server.url, `nobody-${i}`, 'wrong', fresh())
      const wrong = await attempt(server.url, `known-${i % KNOWN}`, 'wrong', fresh())
      if (unknown.status !== 401 || wrong.status !== 401) throw new Error(`expected 401s: ${unknown.status}, ${wrong.status}`)
      times.unknown.push(unknown.ms)
      times.wrong.push(wrong.ms)
    }
    const p50 = { unknown: median(times.unknown), wrong: median(times.wrong) }
    const diff = (Math.abs(p50.unknown - p50.wrong) / Math.max(p50.unknown, p50.wrong)) * 100
    row(
      'sign-in answer: unknown user',
      p50.unknown.toFixed(1),
      'ms p50',
      '-',
      null,
      `p90 ${percentile(times.unknown, 90).toFixed(1)} ms`,
    )
    row(
      'sign-in answer: wrong password',
      p50.wrong.toFixed(1),
      'ms p50',
      '-',
      null,
      `p90 ${percentile(times.wrong, 90).toFixed(1)} ms`,
    )
    row(
      'unknown user vs wrong password',
      diff.toFixed(1),
      '% apart (p50)',
      '< 10',
      diff < 10,
      `${ATTEMPTS} attempts, interleaved, none throttled`,
    )
  } finally {
    await server.stop()
  }
}
