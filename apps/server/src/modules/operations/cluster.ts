import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * What the nodes sharing one data dir have in common: the cluster's id (part of every service id)
 * and the secret that signs calls between nodes. Written once, by whichever node starts first.
 */
export interface ClusterIdentity {
  id: string
  secret: Buffer
}

export function loadClusterIdentity(dataDir: string): ClusterIdentity {
  const file = path.join(dataDir, 'cluster.json')
  fs.mkdirSync(dataDir, { recursive: true })
  try {
    const fresh = { id: crypto.randomBytes(8).toString('hex'), secret: crypto.randomBytes(32).toString('base64') }
    // 'wx': only the first node creates it; the others read what it wrote.
    fs.writeFileSync(file, JSON.stringify(fresh), { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { id: string; secret: string }
  return { id: stored.id, secret: Buffer.from(stored.secret, 'base64') }
}

export const NODE_SIGNATURE_HEADER = 'x-trove-node-signature'
/** How old a signed node-to-node call may be: long enough for clock skew, short against replay. */
const SIGNATURE_MAX_AGE_MS = 60_000

const mac = (secret: Buffer, ts: string, method: string, url: string) =>
  crypto.createHmac('sha256', secret).update(`${ts}\n${method}\n${url}`).digest('hex')

/** The header value a node sends with a call to a peer: `<epoch ms>.<HMAC of time, method, path+query>`. */
export function signNodeCall(secret: Buffer, method: string, url: string, now = Date.now()): string {
  return `${now}.${mac(secret, String(now), method, url)}`
}

export function verifyNodeCall(
  secret: Buffer,
  header: string | undefined,
  method: string,
  url: string,
  now = Date.now(),
): boolean {
  if (!header) return false
  const [ts, signature] = header.split('.', 2)
  if (!ts || !signature || !/^\d{1,15}$/.test(ts) || Math.abs(now - Number(ts)) > SIGNATURE_MAX_AGE_MS) return false
  const expected = Buffer.from(mac(secret, ts, method, url), 'hex')
  const given = Buffer.from(signature, 'hex')
  return given.length === expected.length && crypto.timingSafeEqual(given, expected)
}
