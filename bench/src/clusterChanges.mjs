// How soon the other nodes of a cluster see a write made on one: a new npm version, a revoked token.
import { npmPublish } from './clusterData.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Polls every 5 ms until `check` answers true; the milliseconds since `since` (Infinity past 10 s). */
async function until(check, since) {
  for (;;) {
    if (await check()) return performance.now() - since
    if (performance.now() - since > 10_000) return Number.POSITIVE_INFINITY
    await sleep(5)
  }
}

/**
 * A new version of `prop-pkg` published through `a`: the ms the publish took, and from its answer
 * until every node of `others` serves the version in the packument.
 */
export async function publishSeen(a, others, token, version) {
  const auth = { authorization: `Bearer ${token}` }
  const packument = (node) => fetch(`${node.url}/api/npm/npm-local/prop-pkg`, { headers: auth })
  // Every node has the packument in its cache (kept up to 2 s) before the write, as under load.
  for (const node of others) await (await packument(node)).arrayBuffer()
  const started = performance.now()
  await npmPublish(a.url, token, 'prop-pkg', version)
  const answered = performance.now()
  const sees = (node) => async () => {
    const res = await packument(node)
    return res.status === 200 && version in (await res.json()).versions
  }
  const seen = await Promise.all(others.map((node) => until(sees(node), answered)))
  return { call: answered - started, seen: Math.max(...seen) }
}

/**
 * A new access token used on every node of `others`, then revoked through `a`: the ms the
 * revocation took, and from its answer until every node refuses the token.
 */
export async function revocationSeen(a, others, token) {
  const made = await fetch(`${a.url}/ui/api/v1/ui/userIdentifyToken/admin`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ expiresIn: 3600 }),
  })
  if (made.status !== 200) throw new Error(`token: ${made.status}`)
  const { access_token: doomed, token_id: id } = await made.json()
  const probe = async (node) => {
    const res = await fetch(`${node.url}/api/npm/npm-local/prop-pkg`, { headers: { authorization: `Bearer ${doomed}` } })
    await res.arrayBuffer()
    return res.status
  }
  // Each node has resolved the token (and keeps its caller for up to 2 s) before it is revoked.
  for (const node of others) {
    const status = await probe(node)
    if (status !== 200) throw new Error(`a new token on ${node.url}: ${status}`)
  }
  const started = performance.now()
  const revoked = await fetch(`${a.url}/ui/api/v1/ui/userIdentifyToken/id/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  })
  if (revoked.status !== 204) throw new Error(`revoke: ${revoked.status}`)
  const answered = performance.now()
  const refused = (node) => async () => [401, 403].includes(await probe(node))
  const seen = await Promise.all(others.map((node) => until(refused(node), answered)))
  return { call: answered - started, seen: Math.max(...seen) }
}
