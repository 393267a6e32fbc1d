import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { ConfigError } from './config.js'
import type { Database } from './schema.js'
import type { SecretBox } from './secretBox.js'

/**
 * What the nodes of a cluster have in common: the cluster's id (part of every service id) and the
 * secret that signs calls between nodes. Both come from the database and the master key, so nodes
 * need no shared file system.
 */
export interface ClusterIdentity {
  id: string
  secret: Buffer
}

/**
 * The cluster's identity, recorded by whichever node starts first on the database. A node whose
 * master key is not the one the cluster's secrets are sealed with stops here (ConfigError): it
 * could read none of them, and would sign what its peers refuse.
 */
export async function clusterIdentity(db: Kysely<Database>, dataDir: string, secrets: SecretBox): Promise<ClusterIdentity> {
  const check = secrets.derive('master key check').toString('hex')
  await db
    .insertInto('cluster_identity')
    .values({
      singleton: 1,
      id: legacyClusterId(dataDir) ?? crypto.randomBytes(8).toString('hex'),
      key_check: check,
      created_at: Date.now(),
    })
    .onConflict((oc) => oc.column('singleton').doNothing())
    .execute()
  const row = await db
    .selectFrom('cluster_identity')
    .select(['id', 'key_check'])
    .where('singleton', '=', 1)
    .executeTakeFirstOrThrow()
  if (row.key_check !== check) {
    throw new ConfigError(
      "Invalid configuration:\n  TROVE_MASTER_KEY: this node's master key is not the one the cluster's secrets are sealed with. " +
        "Give every node the same TROVE_MASTER_KEY (or TROVE_MASTER_KEY_FILE): the first node's key, from its data dir's secrets/master.key if it never had one set",
    )
  }
  return { id: row.id, secret: secrets.derive('node calls') }
}

/** The id an older release kept in `<data dir>/cluster.json`: kept, so service ids stay the same. */
function legacyClusterId(dataDir: string): string | undefined {
  try {
    const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'cluster.json'), 'utf8')) as { id?: unknown }
    return typeof stored.id === 'string' && /^[0-9a-f]{1,32}$/.test(stored.id) ? stored.id : undefined
  } catch {
    return undefined
  }
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
