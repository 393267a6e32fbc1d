// A 1 GB OCI layer pushed to Trove and pulled back with skopeo (the real client) over loopback:
// MB/s each way, and how much the server's resident memory grows meanwhile (/proc/<pid>/status).
// Measured with the machine's skopeo and with Debian 13's (debianSkopeo.mjs), and each client also
// against a registry that stores nothing (ociSink.mjs): what the client alone can do here. First,
// blob GETs of a small config and a 96 KB layer with autocannon, against a generic GET of the
// same 96 KB (what a registry client's many small reads cost).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import { accessToken, createRepos, registryToken } from './clusterData.mjs'
import { debianSkopeo } from './debianSkopeo.mjs'
import { run } from './exec.mjs'
import { throughput } from './load.mjs'
import { startOciSink } from './ociSink.mjs'
import { signInAdmin, startServer } from './server.mjs'
import { median } from './stats.mjs'

const ADMIN_PASSWORD = 'bench-admin-password'
const LAYER_MB = 1024

function sha256File(file) {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256')
    fs.createReadStream(file, { highWaterMark: 1 << 20 })
      .on('data', (c) => hash.update(c))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject)
  })
}

/** An OCI image layout with one layer of `mb` MB (1 GB unless told): random bytes in a stored (level 0) gzip stream. */
export async function buildLayout(dir, mb = LAYER_MB) {
  const layout = path.join(dir, 'layout')
  const blobs = path.join(layout, 'blobs', 'sha256')
  fs.mkdirSync(blobs, { recursive: true })
  const raw = path.join(dir, 'layer')
  const block = crypto.randomBytes(1 << 20)
  async function* source() {
    for (let i = 0; i < mb; i++) {
      block.writeUInt32LE(i, 0)
      yield block
    }
  }
  await pipeline(source, zlib.createGzip({ level: 0 }), fs.createWriteStream(raw))
  const layerHex = await sha256File(raw)
  const layerSize = fs.statSync(raw).size
  fs.renameSync(raw, path.join(blobs, layerHex))
  const config = Buffer.from(
    JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] }, history: [] }),
  )
  const hex = (b) => crypto.createHash('sha256').update(b).digest('hex')
  fs.writeFileSync(path.join(blobs, hex(config)), config)
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${hex(config)}`, size: config.length },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: `sha256:${layerHex}`, size: layerSize }],
    }),
  )
  fs.writeFileSync(path.join(blobs, hex(manifest)), manifest)
  fs.writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }))
  fs.writeFileSync(
    path.join(layout, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          digest: `sha256:${hex(manifest)}`,
          size: manifest.length,
          annotations: { 'org.opencontainers.image.ref.name': 'big' },
        },
      ],
    }),
  )
  return { layout, layerHex, layerSize }
}

function rssKb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
}

/** CPU seconds (user + system) the process has used: /proc/<pid>/stat, in clock ticks of 1/100 s. */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** CPU seconds this process's finished children (skopeo) have used, from the same file. */
function childCpuSeconds() {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  return (Number(fields[13]) + Number(fields[14])) / 100
}

/**
 * Runs `fn` while sampling the server's RSS every 50 ms; returns the time taken, the peak, and the
 * CPU time the server spent (what the transfer costs Trove, whatever else the machine runs).
 */
async function sampled(pid, fn) {
  const cpuBefore = cpuSeconds(pid)
  const clientBefore = childCpuSeconds()
  let peak = rssKb(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, rssKb(pid))
  }, 50)
  const started = performance.now()
  try {
    await fn()
  } finally {
    clearInterval(timer)
  }
  peak = Math.max(peak, rssKb(pid))
  return {
    seconds: (performance.now() - started) / 1000,
    peak,
    cpu: cpuSeconds(pid) - cpuBefore,
    client: childCpuSeconds() - clientBefore,
  }
}

/** Where pulled copies go: memory (tmpfs) when there is room, so the client's disk does not set the pace. */
export function pullRoot(work) {
  try {
    const { bavail, bsize } = fs.statfsSync('/dev/shm')
    if (bavail * bsize > 3 * 1024 ** 3) return fs.mkdtempSync('/dev/shm/trove-bench-oci-')
  } catch {
    // no tmpfs here
  }
  return work
}

/**
 * Pushes `oci:<layout>:big` to `host` and pulls it back into `into`, with `skopeo`; times both. Every
 * pull of the bench goes into the same `into`, emptied just before: each one writes into the memory
 * its predecessor freed. On a virtual machine a page of tmpfs written for the first time (or again
 * after the host took it back) costs the client several times more system time than a page freed
 * a moment ago, and that cost, on the same two cores, would set the pace of whichever pull met it.
 */
async function copyBothWays(skopeo, host, repoPath, layout, into, pid) {
  const creds = `admin:${ADMIN_PASSWORD}`
  const target = `docker://${host}/${repoPath}/big:1`
  const push = await sampled(pid, () =>
    skopeo(['--insecure-policy', 'copy', '--dest-creds', creds, '--dest-tls-verify=false', `oci:${layout}:big`, target]),
  )
  fs.rmSync(into, { recursive: true, force: true })
  const pull = await sampled(pid, () =>
    skopeo(['--insecure-policy', 'copy', '--src-creds', creds, '--src-tls-verify=false', target, `oci:${into}:big`]),
  )
  return { push, pull }
}

/** The clients: the machine's skopeo and Debian 13's (see debianSkopeo.mjs), each as far as it is here. */
async function clients(row) {
  const found = []
  const system = (args) => run('skopeo', args)
  try {
    found.push({ version: (await system(['--version'])).trim().replace('skopeo version ', ''), skopeo: system })
  } catch {
    row('oci: skopeo', 'n/a', '', 'skopeo installed', false, 'skopeo is not installed (apt-get install skopeo)')
  }
  try {
    const debian13 = await debianSkopeo()
    const version = (await debian13(['--version'])).trim().replace('skopeo version ', '')
    if (!found.some((c) => c.version === version)) found.push({ version, skopeo: debian13 })
  } catch (error) {
    row('oci: skopeo from Debian 13', 'n/a', '', '', false, `could not be unpacked here: ${error.message.split('\n')[0]}`)
  }
  return found
}

/** Rounds per client: the machine is shared and one copy's speed says little (median of the rounds). */
const ROUNDS = 3

/** One round with one client: the copies to the sink, then to a fresh Trove. */
async function round(skopeo, layout, layerHex, layerSize, pulled) {
  // The client alone: the same copies to and from a registry that keeps and checks nothing.
  const sink = await startOciSink(layout)
  const into = path.join(pulled, 'copy')
  let alone
  try {
    alone = await copyBothWays(skopeo, sink.host, 'sink', layout, into, process.pid)
  } finally {
    await sink.stop()
  }
  const server = await startServer({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD, TROVE_UPLOAD_MAX_SIZE: String(4 * 1024 ** 3) })
  try {
    const auth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`
    const created = await fetch(`${server.url}/api/repositories/docker-local`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'docker' }),
    })
    if (created.status !== 201) throw new Error(`create docker-local: ${created.status} ${await created.text()}`)
    // Warm-up: a 4 MB blob, past the size hashed inline, starts the hashing threads (once per
    // process, 20 MB); then the server settles before the baseline.
    const warm = crypto.randomBytes(4 * 1024 * 1024)
    const digest = `sha256:${crypto.createHash('sha256').update(warm).digest('hex')}`
    const warmed = await fetch(`${server.url}/v2/docker-local/warm/blobs/uploads/?digest=${digest}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/octet-stream' },
      body: warm,
    })
    if (warmed.status !== 201) throw new Error(`warm-up upload: ${warmed.status} ${await warmed.text()}`)
    await new Promise((r) => setTimeout(r, 1000))
    const baseline = rssKb(server.pid)
    const host = server.url.replace('http://', '')
    const { push, pull } = await copyBothWays(skopeo, host, 'docker-local', layout, into, server.pid)
    if (fs.statSync(path.join(into, 'blobs', 'sha256', layerHex)).size !== layerSize) throw new Error('the pulled layer differs')
    return { alone, push, pull, baseline, growth: (Math.max(push.peak, pull.peak) - baseline) / 1024 }
  } finally {
    await server.stop()
  }
}

/** Registry blob GETs of small blobs (a config, a 96 KB layer) with 20 connections, and a generic GET of the 96 KB for comparison. */
async function smallBlobReads(row) {
  const server = await startServer({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD })
  try {
    const session = await signInAdmin(server.url, ADMIN_PASSWORD)
    const { token } = await accessToken(server.url, session)
    await createRepos(server.url, token)
    const auth = {
      authorization: `Bearer ${await registryToken(server.url, token, ['repository:docker-local/reads:pull,push'])}`,
    }
    const blobs = [
      ['registry blob GET, 2 KB config', crypto.randomBytes(2048)],
      ['registry blob GET, 96 KB layer', crypto.randomBytes(96 * 1024)],
    ]
    for (const [name, blob] of blobs) {
      const hex = crypto.createHash('sha256').update(blob).digest('hex')
      const res = await fetch(`${server.url}/v2/docker-local/reads/blobs/uploads/?digest=sha256:${hex}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: blob,
      })
      if (res.status !== 201) throw new Error(`blob upload: ${res.status}`)
      const r = await throughput(`${server.url}/v2/docker-local/reads/blobs/sha256:${hex}`, auth)
      row(name, r.rps.toFixed(0), 'req/s', '-', r.errors === 0, `p50 ${r.p50} ms, 20 connections, registry token`)
    }
    const bearer = { authorization: `Bearer ${token}` }
    const put = await fetch(`${server.url}/artifactory/files/reads.bin`, { method: 'PUT', headers: bearer, body: blobs[1][1] })
    if (put.status !== 201) throw new Error(`generic deploy: ${put.status}`)
    const g = await throughput(`${server.url}/artifactory/files/reads.bin`, bearer)
    row('generic GET, the same 96 KB', g.rps.toFixed(0), 'req/s', '-', g.errors === 0, `p50 ${g.p50} ms, for comparison`)
  } finally {
    await server.stop()
  }
}

export async function benchOci(row) {
  await smallBlobReads(row)
  // TROVE_BENCH_OCI_ONLY=reads: the small blob reads alone.
  if (process.env.TROVE_BENCH_OCI_ONLY === 'reads') return
  const found = await clients(row)
  if (found.length === 0) return
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-oci-'))
  const pulled = pullRoot(work)
  try {
    const { layout, layerHex, layerSize } = await buildLayout(work)
    const mb = layerSize / 1024 ** 2
    const rate = (phase) => mb / phase.seconds
    const growths = []
    let baselineMb = 0
    for (const { version, skopeo } of found) {
      const rounds = []
      for (let i = 0; i < ROUNDS; i++) rounds.push(await round(skopeo, layout, layerHex, layerSize, pulled))
      growths.push(...rounds.map((r) => r.growth))
      baselineMb = median(rounds.map((r) => r.baseline)) / 1024
      for (const way of ['push', 'pull']) {
        const speeds = rounds.map((r) => rate(r[way]))
        const value = median(speeds)
        const sink = median(rounds.map((r) => rate(r.alone[way])))
        const cpu = (pick) => median(rounds.map((r) => pick(r[way]))).toFixed(1)
        row(
          `oci: 1 GB layer ${way}, skopeo ${version}`,
          value.toFixed(0),
          'MB/s',
          '≥ 300',
          value >= 300,
          `median of ${ROUNDS} (${speeds.map((v) => v.toFixed(0)).join(', ')}); server CPU ${cpu((p) => p.cpu)} s, ` +
            `skopeo CPU ${cpu((p) => p.client)} s; skopeo alone (to a registry that stores nothing) ${sink.toFixed(0)} MB/s` +
            (way === 'pull' ? `; pulled into ${pulled.startsWith('/dev/shm') ? 'tmpfs' : 'the work dir'}` : ''),
        )
      }
    }
    const growth = Math.max(...growths)
    row(
      'oci: server RSS growth',
      growth.toFixed(0),
      'MB',
      '< 100',
      growth < 100,
      `largest of all rounds; baseline ${baselineMb.toFixed(0)} MB, after a 4 MB warm-up upload`,
    )
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
    if (pulled !== work) fs.rmSync(pulled, { recursive: true, force: true })
  }
}
