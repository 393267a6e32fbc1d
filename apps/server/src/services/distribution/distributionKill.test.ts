import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerProcess } from '../../../test/crash.js'
import { Front } from '../../../test/front.js'
import { NodeProcess, sessionHeaders } from '../../../test/nodeProcess.js'

const MODULES = { TROVE_MODULES: 'repository,distribution', TROVE_DISTRIBUTION_POLL_MS: '200' }
const UI = '/distribution/api/ui'
const FILES = 40

/** Signed in as the admin: a JSON caller that throws on a refusal, and a token. */
async function session(node: NodeProcess) {
  const s = await node.signIn()
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await node.inject({
      method,
      url: path,
      headers: sessionHeaders(s),
      ...(body === undefined ? {} : { payload: body as object }),
    })
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`)
    return res.body ? res.json() : null
  }
  return { call, token: await node.token(s) }
}

/**
 * Two built nodes as processes of their own. The target is killed (SIGKILL) half-way through a
 * distribution and started again: the distribution resumes, and no file it had taken is sent again.
 */
describe('a distribution whose target is killed half-way', () => {
  let sourceNode: NodeProcess
  let targetNode: NodeProcess
  let source: ServerProcess
  let target: ServerProcess
  let front: Front

  beforeAll(async () => {
    sourceNode = await NodeProcess.start(MODULES)
    targetNode = await NodeProcess.start(MODULES)
    source = sourceNode.process
    target = targetNode.process
    front = new Front(target.port)
    await front.up()
  }, 120_000)
  afterAll(async () => {
    await front.down()
    await sourceNode.close()
    await targetNode.close()
  })

  it('resumes when the target is back, without sending again what it had', { timeout: 120_000 }, async () => {
    const src = await session(sourceNode)
    const tgt = await session(targetNode)
    await src.call('PUT', '/api/repositories/files', { rclass: 'local', packageType: 'generic' })
    const contents = new Map<string, Buffer>()
    for (let i = 0; i < FILES; i++) {
      const body = crypto.randomBytes(256 * 1024 + i)
      const path = `data/file-${String(i).padStart(2, '0')}.bin`
      contents.set(path, body)
      const res = await fetch(`${source.url}/artifactory/files/${path}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${src.token}` },
        body,
      })
      expect(res.status).toBe(201)
    }
    await src.call('POST', `${UI}/release_bundles`, {
      name: 'data',
      version: '1',
      sources: [{ type: 'path', repoKey: 'files', path: 'data' }],
    })
    await src.call('POST', `${UI}/release_bundles/data/1/sign`, {})
    await src.call('PUT', `${UI}/targets/edge`, { url: front.url, token: tgt.token })

    // Files reach the target slowly; half-way it is killed.
    front.delayMs = 40
    front.slow = /^PUT \/distribution\/api\/v1\/incoming\/blobs\//
    const taken = () =>
      front.answered.filter((l) => l.startsWith('PUT /distribution/api/v1/incoming/blobs/') && l.endsWith(' 201'))
    const killed = new Promise<void>((resolve) => {
      front.onAnswer = () => {
        if (taken().length >= FILES / 2 && target.running) {
          target.kill()
          resolve()
        }
      }
    })
    await src.call('POST', `${UI}/release_bundles/data/1/distribute`, { targets: ['edge'] })
    await killed
    expect(await target.ended()).toBe('SIGKILL')
    front.onAnswer = undefined
    const before = new Set(taken().map((l) => l.split(' ')[1]?.split('/').pop()))
    const mark = front.seen.length
    // Nothing of the bundle is visible on the target until it is whole.
    await target.start(MODULES)
    front.upstreamPort = target.port
    const tgt2 = await session(targetNode)
    const listed = (await tgt2.call('GET', `${UI}/release_bundles?origin=target`)).bundles
    if (listed.length > 0) expect(listed[0]).toMatchObject({ name: 'data', verified: true, files: FILES })

    const until = Date.now() + 60_000
    for (;;) {
      const d = (await src.call('GET', `${UI}/release_bundles/data/1`)).distributions[0]
      if (d.state === 'completed') break
      if (Date.now() > until) throw new Error(`not completed: ${JSON.stringify(d)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    const after = front.seen
      .slice(mark)
      .filter((l) => l.startsWith('PUT /distribution/api/v1/incoming/blobs/'))
      .map((l) => l.split(' ')[1]?.split('/').pop())
    expect(after.filter((sha) => before.has(sha))).toEqual([])
    // Each file at most once after the restart. A file the target had stored as it was killed, whose
    // answer never came back, is in neither list: the target said it held it, so it was not sent.
    expect(new Set(after).size).toBe(after.length)
    expect(before.size + after.length).toBeLessThanOrEqual(FILES)
    expect(before.size).toBeGreaterThanOrEqual(FILES / 2)

    // Every file is on the target, whole; its store is consistent.
    for (const [path, body] of contents) {
      const res = await fetch(`${target.url}/artifactory/files/${path}`, { headers: { authorization: `Bearer ${tgt2.token}` } })
      expect(res.status).toBe(200)
      expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true)
    }
    const doctor = await tgt2.call('POST', '/api/system/doctor', {})
    expect(doctor).toMatchObject({ ok: true, missing: [], corrupt: [], danglingFiles: [], mismatchedFiles: [] })
  })
})
