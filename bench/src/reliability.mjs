// Reliability under faults and hostile input (docs/reliability.md):
// - crash consistency: the crash harness (apps/server/src/crash.test.ts) with TROVE_CRASH_POINTS
//   kill points per format (TROVE_BENCH_CRASH_POINTS, default 200), on SQLite, and on PostgreSQL
//   too with TROVE_BENCH_POSTGRES=1; TROVE_BENCH_CRASH_ONLY=sqlite (or postgres) runs that crash run
//   alone, nothing else of this suite, so the two databases' long runs can go side by side;
//   TROVE_BENCH_CRASH_FORMATS picks formats (npm,pypi,docker,maven,generic);
// - concurrent publishes: 100 publishes of one npm version and 100 deploys of one Maven release
//   file at once, against the built server: one wins, the packument and the metadata list it once;
// - fuzzing: every property test over client input with FUZZ_RUNS cases each
//   (TROVE_BENCH_FUZZ_RUNS, default 10,000), new cases every run.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { signInAdmin, startServer } from './server.mjs'

const ROOT = new URL('../..', import.meta.url).pathname
const SERVER = path.join(ROOT, 'apps/server')
const VITEST = path.join(ROOT, 'node_modules/.bin/vitest')
const CRASH_POINTS = Number(process.env.TROVE_BENCH_CRASH_POINTS ?? 200)
const FUZZ_RUNS = Number(process.env.TROVE_BENCH_FUZZ_RUNS ?? 10_000)
const CONCURRENT = 100

/** Runs vitest on files with extra settings; resolves with its exit code (the figures come from reports). */
async function vitest(files, env, options = {}) {
  const { spawn } = await import('node:child_process')
  const args = ['run', ...files, '--reporter=dot', ...(options.json ? ['--reporter=json', `--outputFile=${options.json}`] : [])]
  const [cmd, argv] = options.postgres ? [path.join(ROOT, 'scripts/with-postgres.sh'), [VITEST, ...args]] : [VITEST, args]
  const child = spawn(cmd, argv, { cwd: SERVER, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] })
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)))
}

async function crashConsistency(row, postgres) {
  const report = path.join(os.tmpdir(), `trove-crash-${process.pid}-${postgres ? 'pg' : 'sqlite'}.json`)
  // A copy of the build for the long run, so that building meanwhile cannot pull it from under it.
  const build = path.join(SERVER, '.tmp', `crash-build-${process.pid}`)
  fs.rmSync(build, { recursive: true, force: true })
  fs.cpSync(path.join(SERVER, 'dist'), build, { recursive: true })
  const env = {
    TROVE_CRASH_POINTS: String(CRASH_POINTS),
    TROVE_CRASH_REPORT: report,
    TROVE_CRASH_SERVER: path.join(build, 'src/main.js'),
  }
  if (process.env.TROVE_BENCH_CRASH_FORMATS) env.TROVE_CRASH_FORMATS = process.env.TROVE_BENCH_CRASH_FORMATS
  const started = performance.now()
  await vitest(['src/crash.test.ts'], env, { postgres })
  const minutes = ((performance.now() - started) / 60_000).toFixed(1)
  const results = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : []
  fs.rmSync(report, { force: true })
  if (results.length === 0)
    row(`crash: ${postgres ? 'PostgreSQL' : 'SQLite'}`, 'no report', '', '', false, 'the harness did not run')
  for (const r of results) {
    row(
      `crash: ${r.format} (${r.database})`,
      `${r.tried} / ${r.failures.length}`,
      'kill points / failures',
      `>= ${CRASH_POINTS} / 0`,
      r.tried >= CRASH_POINTS && r.failures.length === 0,
      `${r.byOffset} by byte offset of ${r.bytes} sent, ${r.byStep} at commit steps, ${r.notReached} not reached; ${minutes} min for all formats${r.failures.length ? `; first: ${r.failures[0]}` : ''}`,
    )
  }
}

/** A tarball of package.json and index.js, as `npm pack` makes it. */
function npmTarball(name, version, i) {
  const header = (file, size) => {
    const h = Buffer.alloc(512)
    h.write(`package/${file}`, 0)
    h.write('0000644\0', 100)
    h.write('0000000\0', 108)
    h.write('0000000\0', 116)
    h.write(`${size.toString(8).padStart(11, '0')}\0`, 124)
    h.write('00000000000\0', 136)
    h.write('        ', 148)
    h.write('0', 156)
    h.write('ustar\0', 257)
    h.write('00', 263)
    let sum = 0
    for (const b of h) sum += b
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
    return h
  }
  const entry = (file, text) => {
    const data = Buffer.from(text)
    return [header(file, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512)]
  }
  return zlib.gzipSync(
    Buffer.concat([
      ...entry('package.json', JSON.stringify({ name, version, description: `publish ${i}` })),
      ...entry('index.js', `module.exports = ${i}\n`),
      Buffer.alloc(1024),
    ]),
  )
}

async function concurrentPublishes(row) {
  const password = 'bench-admin-password'
  const server = await startServer({ TROVE_ADMIN_PASSWORD: password })
  try {
    const admin = await signInAdmin(server.url, password)
    const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`
    for (const [key, packageType] of [
      ['npm-local', 'npm'],
      ['maven-local', 'maven'],
    ]) {
      const res = await fetch(`${server.url}/api/repositories/${key}`, {
        method: 'PUT',
        headers: admin,
        body: JSON.stringify({ rclass: 'local', packageType }),
      })
      if (res.status !== 201) throw new Error(`create ${key}: ${res.status}`)
    }
    const count = (responses) => {
      const byStatus = {}
      for (const s of responses) byStatus[s] = (byStatus[s] ?? 0) + 1
      return byStatus
    }

    // npm: each publish carries other content under version 1.0.0.
    const name = 'race'
    const statuses = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const tgz = npmTarball(name, '1.0.0', i)
        const file = `${name}-1.0.0.tgz`
        const res = await fetch(`${server.url}/api/npm/npm-local/${name}`, {
          method: 'PUT',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            _id: name,
            name,
            'dist-tags': { latest: '1.0.0' },
            versions: { '1.0.0': { name, version: '1.0.0', description: `publish ${i}`, dist: { tarball: file } } },
            _attachments: {
              [file]: { content_type: 'application/octet-stream', data: tgz.toString('base64'), length: tgz.length },
            },
          }),
        })
        await res.arrayBuffer()
        return res.status
      }),
    )
    const packument = await (await fetch(`${server.url}/api/npm/npm-local/${name}`, { headers: { authorization: auth } })).json()
    const listed = Object.keys(packument.versions ?? {}).length
    const npmCounts = count(statuses)
    row(
      `concurrency: ${CONCURRENT} npm publishes of one version`,
      `${npmCounts[201] ?? 0} / ${listed - 1}`,
      'won / duplicates',
      '1 / 0',
      npmCounts[201] === 1 && npmCounts[409] === CONCURRENT - 1 && listed === 1,
      `answers ${JSON.stringify(npmCounts)}`,
    )

    // Maven: each deploy carries another jar under release 1.0.0; the admin may overwrite, so every
    // deploy succeeds and the last one stays: one file, one version.
    const dir = 'com/example/race/1.0.0'
    const sent = Array.from({ length: CONCURRENT }, (_, i) => `jar ${i} ${crypto.randomBytes(8).toString('hex')}`)
    const jars = await Promise.all(
      sent.map(async (body) => {
        const res = await fetch(`${server.url}/artifactory/maven-local/${dir}/race-1.0.0.jar`, {
          method: 'PUT',
          headers: { authorization: auth },
          body,
        })
        await res.arrayBuffer()
        return res.status
      }),
    )
    await fetch(`${server.url}/artifactory/maven-local/${dir}/race-1.0.0.pom`, {
      method: 'PUT',
      headers: { authorization: auth },
      body: '<project><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>race</artifactId><version>1.0.0</version></project>',
    })
    const meta = await (
      await fetch(`${server.url}/artifactory/maven-local/com/example/race/maven-metadata.xml`, {
        headers: { authorization: auth },
      })
    ).text()
    const versions = [...meta.matchAll(/<version>([^<]+)<\/version>/g)].length
    const folder = await (
      await fetch(`${server.url}/api/storage/maven-local/${dir}`, { headers: { authorization: auth } })
    ).json()
    const stored = (folder.children ?? []).filter((c) => c.uri.endsWith('.jar')).length
    const served = await (
      await fetch(`${server.url}/artifactory/maven-local/${dir}/race-1.0.0.jar`, { headers: { authorization: auth } })
    ).text()
    const mavenCounts = count(jars)
    row(
      `concurrency: ${CONCURRENT} Maven deploys of one release file`,
      `${stored} / ${versions - 1}`,
      'jars stored / duplicate versions',
      '1 / 0',
      stored === 1 && versions === 1 && sent.includes(served),
      `answers ${JSON.stringify(mavenCounts)}; the jar served is one of those sent`,
    )
  } finally {
    await server.stop()
  }
}

async function fuzzing(row) {
  const report = path.join(os.tmpdir(), `trove-fuzz-${process.pid}.json`)
  const files = fs
    .readdirSync(path.join(SERVER, 'src'), { recursive: true })
    .filter((f) => String(f).endsWith('.fuzz.test.ts'))
    .map((f) => `src/${f}`)
  const started = performance.now()
  await vitest(files, { FUZZ_RUNS: String(FUZZ_RUNS) }, { json: report })
  const minutes = ((performance.now() - started) / 60_000).toFixed(1)
  const results = JSON.parse(fs.readFileSync(report, 'utf8'))
  fs.rmSync(report, { force: true })
  for (const file of results.testResults) {
    const tests = file.assertionResults
    const failed = tests.filter((t) => t.status !== 'passed')
    row(
      `fuzz: ${path.relative(SERVER, file.name)}`,
      `${tests.length} / ${failed.length}`,
      'properties / failed',
      '0 failed',
      failed.length === 0,
      `${FUZZ_RUNS} new cases each (costly ones capped lower), ${minutes} min for all files${failed.length ? `; failed: ${failed.map((t) => t.title).join('; ')}` : ''}`,
    )
  }
}

/** @param {import('./stats.mjs').Row} row */
export async function benchReliability(row) {
  const only = process.env.TROVE_BENCH_CRASH_ONLY
  if (only) return crashConsistency(row, only === 'postgres')
  await concurrentPublishes(row)
  await fuzzing(row)
  await crashConsistency(row, false)
  if (process.env.TROVE_BENCH_POSTGRES === '1') await crashConsistency(row, true)
}
