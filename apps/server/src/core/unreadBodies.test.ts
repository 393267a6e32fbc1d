import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen } from '../../test/clients.js'
import { createTestApp, signIn, type TestApp } from '../../test/testApp.js'

/**
 * An upload refused or failed half-way is answered before its body has all arrived. The server
 * reads no more of it, so the answer closes the connection: left open, the client would wait to
 * send the rest, and the connection (and the server's shutdown) would hang for ever.
 */
describe('an answer sent before the request body was all received', () => {
  let t: TestApp
  let base: string
  let auth: { authorization: string }
  const connections = () => new Promise<number>((resolve) => t.fastify.server.getConnections((_e, n) => resolve(n)))

  beforeAll(async () => {
    t = await createTestApp({ TROVE_UPLOAD_MAX_SIZE: String(1024 * 1024) })
    base = await listen(t.fastify)
    const admin = await signIn(t.fastify)
    auth = { authorization: `Bearer ${await accessToken(t.fastify, admin)}` }
    await createRepo(t.fastify, admin, 'files', { rclass: 'local', packageType: 'generic' })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('closes the connection of an upload refused as it streams (413 past the limit)', async () => {
    const res = await fetch(`${base}/artifactory/files/big.bin`, {
      method: 'PUT',
      headers: auth,
      body: new Uint8Array(32 * 1024 * 1024),
    }).catch((error: Error) => error)
    // The client has the answer (or, sending still, sees the connection end).
    if (!(res instanceof Error)) {
      expect(res.status).toBe(413)
      expect(res.headers.get('connection')).toBe('close')
    }
    const until = Date.now() + 5_000
    while ((await connections()) > 0) {
      if (Date.now() > until) throw new Error('the connection stayed open')
      await new Promise((r) => setTimeout(r, 50))
    }
    // Nothing kept, and the server answers the next request.
    expect((await fetch(`${base}/artifactory/files/big.bin`, { headers: auth })).status).toBe(404)
  })
})
