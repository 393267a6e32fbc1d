// A 1 GB OCI layer pushed to Trove and pulled back with skopeo (the real client) over loopback:
// MB/s each way, and how much the server's resident memory grows meanwhile (/proc/<pid>/status).
import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import { startServer } from './server.mjs'

const ADMIN_PASSWORD = 'bench-admin-password'
const LAYER_MB = 1024

const sh = (cmd, args) =>
  new Promise((resolve, reject) =>
    execFile(cmd, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    ),
  )

function sha256File(file) {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256')
    fs.createReadStream(file, { highWaterMark: 1 << 20 })
      .on('data', (c) => hash.update(c))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject)
  })
}

/** An OCI image layout with one 1 GB layer: random bytes in a stored (level 0) gzip stream. */
async function buildLayout(dir) {
  const layout = path.join(dir, 'layout')
  const blobs = path.join(layout, 'blobs', 'sha256')
  fs.mkdirSync(blobs, { recursive: true })
  const raw = path.join(dir, 'layer')
  const block = crypto.randomBytes(1 << 20)
  async function* source() {
    for (let i = 0; i < LAYER_MB; i++) {
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

/**
 * Runs `fn` while sampling the server's RSS every 50 ms; returns the time taken, the peak, and the
 * CPU time the server spent (what the transfer costs Trove, whatever else the machine runs).
 */
async function sampled(pid, fn) {
  const cpuBefore = cpuSeconds(pid)
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
  return { seconds: (performance.now() - started) / 1000, peak, cpu: cpuSeconds(pid) - cpuBefore }
}

export async function benchOci(row) {
  try {
    await sh('skopeo', ['--version'])
  } catch {
    row('oci: skopeo', 'n/a', '', 'skopeo installed', false, 'skopeo is not installed (apt-get install skopeo)')
    return
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-oci-'))
  const server = await startServer({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD, TROVE_UPLOAD_MAX_SIZE: String(4 * 1024 ** 3) })
  try {
    const auth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`
    const created = await fetch(`${server.url}/api/repositories/docker-local`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'docker' }),
    })
    if (created.status !== 201) throw new Error(`create docker-local: ${created.status} ${await created.text()}`)
    const { layout, layerHex, layerSize } = await buildLayout(work)
    const host = server.url.replace('http://', '')
    const mb = layerSize / 1024 ** 2
    // Let the server settle after start-up and repository creation before the baseline.
    await new Promise((r) => setTimeout(r, 1000))
    const baseline = rssKb(server.pid)
    const push = await sampled(server.pid, () =>
      sh('skopeo', [
        '--insecure-policy',
        'copy',
        '--dest-creds',
        `admin:${ADMIN_PASSWORD}`,
        '--dest-tls-verify=false',
        `oci:${layout}:big`,
        `docker://${host}/docker-local/big:1`,
      ]),
    )
    fs.rmSync(path.join(layout, 'blobs', 'sha256', layerHex))
    const back = path.join(work, 'back')
    const pull = await sampled(server.pid, () =>
      sh('skopeo', [
        '--insecure-policy',
        'copy',
        '--src-creds',
        `admin:${ADMIN_PASSWORD}`,
        '--src-tls-verify=false',
        `docker://${host}/docker-local/big:1`,
        `oci:${back}:big`,
      ]),
    )
    if (fs.statSync(path.join(back, 'blobs', 'sha256', layerHex)).size !== layerSize) throw new Error('the pulled layer differs')
    const growthMb = (Math.max(push.peak, pull.peak) - baseline) / 1024
    const cpuNote = (phase) =>
      `server CPU ${phase.cpu.toFixed(1)} s (${(mb / phase.cpu).toFixed(0)} MB per CPU second); ${phase.seconds.toFixed(1)} s`
    row('oci: 1 GB layer push (skopeo)', (mb / push.seconds).toFixed(0), 'MB/s', '≥ 300', mb / push.seconds >= 300, cpuNote(push))
    row('oci: 1 GB layer pull (skopeo)', (mb / pull.seconds).toFixed(0), 'MB/s', '≥ 300', mb / pull.seconds >= 300, cpuNote(pull))
    row(
      'oci: server RSS growth',
      growthMb.toFixed(0),
      'MB',
      '< 100',
      growthMb < 100,
      `baseline ${(baseline / 1024).toFixed(0)} MB`,
    )
  } finally {
    await server.stop()
    fs.rmSync(work, { recursive: true, force: true })
  }
}
