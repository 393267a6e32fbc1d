// Distribution of a release bundle between two built nodes on loopback: throughput and both
// servers' memory growth, then a distribution whose target is killed (SIGKILL) half-way and
// started again: what had arrived is not sent again. TROVE_BENCH_DIST_FILES (default 1000) files
// of TROVE_BENCH_DIST_FILE_MB (default 2) MB each: 2 GB.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, signInAdmin, startServer } from './server.mjs'

const PASSWORD = 'bench-password-123'
const MODULES = { TROVE_MODULES: 'repository,distribution', TROVE_ADMIN_PASSWORD: PASSWORD, TROVE_DISTRIBUTION_POLL_MS: '200' }
const UI = '/distribution/api/ui'

const rssMb = (pid) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) / 1024 : 0
  } catch {
    return 0
  }
}

async function call(url, headers, method, pathname, body) {
  const res = await fetch(`${url}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`)
  return text ? JSON.parse(text) : null
}

async function tokenOf(url, headers) {
  return (await call(url, headers, 'POST', '/ui/api/v1/ui/userIdentifyToken/admin', { expiresIn: 86400 })).access_token
}

/** Uploads `files` files of `mb` MB of random content, four at a time. */
async function fill(url, token, repo, files, mb) {
  const size = mb * 1024 * 1024
  let next = 0
  const worker = async () => {
    while (next < files) {
      const i = next++
      const body = crypto.randomBytes(size)
      const res = await fetch(`${url}/artifactory/${repo}/data/file-${String(i).padStart(5, '0')}.bin`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
        body,
      })
      if (res.status !== 201) throw new Error(`upload ${i}: ${res.status}`)
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
}

const distribution = async (url, headers, name, version, target) =>
  (await call(url, headers, 'GET', `${UI}/release_bundles/${name}/${version}`)).distributions.find((d) => d.target === target)

export async function benchDistribution(row) {
  const files = Number(process.env.TROVE_BENCH_DIST_FILES ?? 1000)
  const mb = Number(process.env.TROVE_BENCH_DIST_FILE_MB ?? 2)
  const source = await startServer(MODULES)
  const target = await startServer(MODULES)
  const targetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-edge-'))
  const edgePort = await freePort()
  let edge = await startServer({ ...MODULES, TROVE_DATA_DIR: targetDir, TROVE_PORT: String(edgePort) })
  try {
    const src = await signInAdmin(source.url, PASSWORD)
    const srcToken = await tokenOf(source.url, src)
    await call(source.url, src, 'PUT', '/api/repositories/bench-files', { rclass: 'local', packageType: 'generic' })
    await fill(source.url, srcToken, 'bench-files', files, mb)
    await call(source.url, src, 'POST', `${UI}/release_bundles`, {
      name: 'bench',
      version: '1',
      sources: [{ type: 'path', repoKey: 'bench-files', path: 'data' }],
    })
    await call(source.url, src, 'POST', `${UI}/release_bundles/bench/1/sign`, {})
    const tgtToken = await tokenOf(target.url, await signInAdmin(target.url, PASSWORD))
    const edgeToken = await tokenOf(edge.url, await signInAdmin(edge.url, PASSWORD))
    await call(source.url, src, 'PUT', `${UI}/targets/target`, { url: target.url, token: tgtToken })
    await call(source.url, src, 'PUT', `${UI}/targets/edge`, { url: edge.url, token: edgeToken })

    // Throughput and memory.
    const base = { source: rssMb(source.pid), target: rssMb(target.pid) }
    const peak = { ...base }
    const sampler = setInterval(() => {
      peak.source = Math.max(peak.source, rssMb(source.pid))
      peak.target = Math.max(peak.target, rssMb(target.pid))
    }, 100)
    const started = performance.now()
    await call(source.url, src, 'POST', `${UI}/release_bundles/bench/1/distribute`, { targets: ['target'] })
    for (;;) {
      const d = await distribution(source.url, src, 'bench', '1', 'target')
      if (d?.state === 'completed') break
      if (d?.state === 'failed') throw new Error(`distribution failed: ${d.lastError}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    const totalMb = files * mb
    const rate = totalMb / seconds
    row(`distribution: ${files} files, ${totalMb} MB, node to node`, rate.toFixed(0), 'MB/s', '≥ 200', rate >= 200)
    const growth = Math.max(peak.source - base.source, peak.target - base.target)
    row(
      'distribution: memory growth (larger of source and target)',
      growth.toFixed(0),
      'MB',
      '< 150',
      growth < 150,
      `source ${(peak.source - base.source).toFixed(0)} MB, target ${(peak.target - base.target).toFixed(0)} MB`,
    )

    // Killed half-way, started again: nothing that had arrived travels again.
    await call(source.url, src, 'POST', `${UI}/release_bundles/bench/1/distribute`, { targets: ['edge'] })
    for (;;) {
      const d = await distribution(source.url, src, 'bench', '1', 'edge')
      if (d && d.bytesDone >= d.bytesTotal / 2) {
        process.kill(edge.pid, 'SIGKILL')
        break
      }
      await new Promise((r) => setTimeout(r, 10))
    }
    // The target logs every answered request: the files it took before the kill, and those it was
    // sent after its restart.
    while (fs.existsSync(`/proc/${edge.pid}`) && !/State:\s+Z/.test(fs.readFileSync(`/proc/${edge.pid}/status`, 'utf8'))) {
      await new Promise((r) => setTimeout(r, 20))
    }
    const log = path.join(targetDir, 'logs', 'trove.log')
    const cut = fs.statSync(log).size
    const blobPuts = (text, ok) =>
      new Set(
        text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .filter((l) => l.method === 'PUT' && /\/incoming\/blobs\//.test(l.url ?? '') && (!ok || l.status === 201))
          .map((l) => l.url.split('/').pop()),
      )
    const before = blobPuts(fs.readFileSync(log, 'utf8').slice(0, cut), true)
    edge = await startServer({ ...MODULES, TROVE_DATA_DIR: targetDir, TROVE_PORT: String(edgePort) })
    for (;;) {
      const d = await distribution(source.url, src, 'bench', '1', 'edge')
      if (d?.state === 'completed') break
      await new Promise((r) => setTimeout(r, 50))
    }
    const after = blobPuts(fs.readFileSync(log).subarray(cut).toString('utf8'), false)
    const resent = [...after].filter((sha) => before.has(sha)).length
    row(
      'distribution: resumed after SIGKILL, files sent again',
      resent,
      'files',
      '0',
      resent === 0,
      `${before.size} of ${files} had arrived, ${after.size} sent after the restart`,
    )
  } finally {
    await source.stop()
    await target.stop()
    await edge.stop().catch(() => {})
    fs.rmSync(targetDir, { recursive: true, force: true })
  }
}
