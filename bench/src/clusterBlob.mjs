// A large layer pushed and pulled with skopeo through a node whose blobs are in the bucket (Ceph's gateway or s3rver)
// and through one whose blobs are on its local disk, in alternating rounds of the same run.
import fs from 'node:fs'
import path from 'node:path'
import { cpuOf } from './clusterProcesses.mjs'
import { debianSkopeo } from './debianSkopeo.mjs'
import { run } from './exec.mjs'
import { buildLayout, pullRoot } from './oci.mjs'
import { median } from './stats.mjs'

/** Debian 13's skopeo where it can be had (the client that leaves the server the pace, see oci.mjs), else the machine's. */
export async function skopeoClient() {
  let skopeo
  try {
    skopeo = await debianSkopeo()
  } catch {
    skopeo = (args) => run('skopeo', args)
  }
  const version = (await skopeo(['--version'])).trim().replace('skopeo version ', '')
  return { skopeo, version }
}

/** CPU seconds of this process's finished children (skopeo). */
function childCpuSeconds() {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  return (Number(fields[13]) + Number(fields[14])) / 100
}

/** How long the node took to answer the upload's requests of `image` (its request log): the PATCH that streamed the layer, the PUT that kept it. */
function uploadTimes(dataDir, image) {
  const file = path.join(dataDir, 'logs', 'trove.log')
  const times = { PATCH: 0, PUT: 0 }
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes(`/v2/docker-local/${image}/blobs/uploads/`)) continue
    try {
      const entry = JSON.parse(line)
      if (entry.method in times) times[entry.method] = Math.max(times[entry.method], entry.durationMs / 1000)
    } catch {
      // a line cut short: not one of ours
    }
  }
  return times
}

async function timed(pids, fn) {
  const before = pids.map(cpuOf)
  const client = childCpuSeconds()
  const started = performance.now()
  await fn()
  return {
    seconds: (performance.now() - started) / 1000,
    cpu: pids.map((pid, i) => cpuOf(pid) - before[i]),
    client: childCpuSeconds() - client,
  }
}

/**
 * The bucket alone, with no Trove in between: the layer uploaded with Trove's own S3 client and
 * settings (one PUT, its length known) under a temp key, copied to its final key and the temp
 * removed (what a node does to keep a pushed layer), then read whole. Seconds of each, and
 * the bucket service's CPU.
 */
async function bucketAlone(endpoint, keys, s3Pid, file, name) {
  const { S3Objects } = await import(new URL('../../apps/server/dist/src/core/s3Objects.js', import.meta.url).href)
  const s3 = new S3Objects({
    bucket: 'trove',
    prefix: 'alone/',
    endpoint,
    region: 'us-east-1',
    ...keys,
    forcePathStyle: true,
    presignAboveBytes: 0,
  })
  try {
    const size = fs.statSync(file).size
    const cpu = cpuOf(s3Pid)
    const t0 = performance.now()
    // Of a known length, as a node sends a chunk whose request gives its length: one PUT.
    await s3.upload(s3.tempKey(name), fs.createReadStream(file, { highWaterMark: 1 << 20 }), size)
    const t1 = performance.now()
    await s3.promote(s3.tempKey(name), s3.blobKey(name.padEnd(64, '0')), size)
    const t2 = performance.now()
    let read = 0
    for await (const chunk of await s3.read(s3.blobKey(name.padEnd(64, '0')))) read += chunk.length
    const t3 = performance.now()
    if (read !== size) throw new Error(`read ${read} bytes of ${size} from the bucket`)
    await s3.delete(s3.blobKey(name.padEnd(64, '0')))
    return { upload: (t1 - t0) / 1000, copy: (t2 - t1) / 1000, read: (t3 - t2) / 1000, s3rverCpu: cpuOf(s3Pid) - cpu }
  } finally {
    s3.destroy()
  }
}

/**
 * `rounds` rounds, each with a new layer of `mb` MB (so nothing is stored already): pushed to and
 * pulled from each target in turn, the order alternating between rounds, then through the bucket
 * alone. A target is `{ name, host, dataDir, pid }`; `s3Pid` is the bucket service's (a pid or several), whose CPU is read around
 * every transfer.
 */
export async function pushPullRounds({ targets, s3Pid, s3Endpoint, s3Keys, password, rounds, mb, work, skopeo }) {
  const pulled = pullRoot(work)
  const into = path.join(pulled, 'copy')
  const creds = `admin:${password}`
  const results = Object.fromEntries(targets.map((t) => [t.name, []]))
  results.bucket = []
  try {
    for (let r = 0; r < rounds; r++) {
      const dir = path.join(work, `layer-${r}`)
      const { layout, layerHex, layerSize } = await buildLayout(dir, mb)
      const order = r % 2 === 0 ? targets : [...targets].reverse()
      for (const target of order) {
        const image = `big-${r}`
        const ref = `docker://${target.host}/docker-local/${image}:1`
        const push = await timed([target.pid, s3Pid], () =>
          skopeo(['--insecure-policy', 'copy', '--dest-creds', creds, '--dest-tls-verify=false', `oci:${layout}:big`, ref]),
        )
        fs.rmSync(into, { recursive: true, force: true })
        const pull = await timed([target.pid, s3Pid], () =>
          skopeo(['--insecure-policy', 'copy', '--src-creds', creds, '--src-tls-verify=false', ref, `oci:${into}:big`]),
        )
        if (fs.statSync(path.join(into, 'blobs', 'sha256', layerHex)).size !== layerSize)
          throw new Error('the pulled layer differs')
        results[target.name].push({ bytes: layerSize, push, pull, upload: uploadTimes(target.dataDir, image) })
      }
      const layer = path.join(layout, 'blobs', 'sha256', layerHex)
      results.bucket.push({ bytes: layerSize, ...(await bucketAlone(s3Endpoint, s3Keys, s3Pid, layer, `round${r}`)) })
      fs.rmSync(dir, { recursive: true, force: true })
    }
  } finally {
    fs.rmSync(into, { recursive: true, force: true })
    if (pulled !== work) fs.rmSync(pulled, { recursive: true, force: true })
  }
  return results
}

/** The median of each figure over the rounds, each way: MB/s, CPU seconds (the node, the bucket service, skopeo); and the seconds of the upload's requests. */
export function summarize(rounds) {
  const m = (pick) => median(rounds.map(pick))
  const way = (phase) => {
    const rates = rounds.map((r) => r.bytes / 1024 ** 2 / r[phase].seconds)
    return {
      rate: median(rates),
      rates,
      cpu: m((r) => r[phase].cpu[0]),
      s3rverCpu: m((r) => r[phase].cpu[1]),
      client: m((r) => r[phase].client),
    }
  }
  return { push: way('push'), pull: way('pull'), patch: m((r) => r.upload.PATCH), put: m((r) => r.upload.PUT) }
}
