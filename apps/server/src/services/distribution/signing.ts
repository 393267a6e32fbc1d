import crypto from 'node:crypto'
import type { SigningKey } from '@trove/contracts/distribution'
import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'
import type { SecretBox } from '../../core/secretBox.js'

/** A key's id: `ed25519:` and the first 16 bytes of the sha256 of its public key (SPKI DER), in hex. */
export function keyIdOf(publicKeyPem: string): string {
  const der = crypto.createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' })
  return `ed25519:${crypto.createHash('sha256').update(der).digest('hex').slice(0, 32)}`
}

/** Whether `signature` (base64) is `text`'s Ed25519 signature by the public key. */
export function verifySignature(publicKeyPem: string, text: string, signature: string): boolean {
  try {
    const key = crypto.createPublicKey(publicKeyPem)
    if (key.asymmetricKeyType !== 'ed25519') return false
    return crypto.verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(signature, 'base64'))
  } catch {
    return false
  }
}

/**
 * This node's bundle signing keys: Ed25519 through node:crypto (OpenSSL), made at first use. One
 * is active and signs; rotating makes a new active key and keeps the old ones published, so
 * bundles signed before still verify.
 */
export class SigningKeys {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
  ) {}

  async list(): Promise<SigningKey[]> {
    const rows = await this.db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').execute()
    return rows.map((r) => ({
      id: r.id,
      algorithm: 'ed25519' as const,
      publicKey: r.public_key,
      createdAt: Number(r.created_at),
      active: r.active === 1,
    }))
  }

  /** The active key, made now if there is none (two nodes at once: the second insert gives way). */
  async active(): Promise<{ id: string; privateKey: crypto.KeyObject }> {
    const row = await this.db.selectFrom('signing_keys').selectAll().where('active', '=', 1).executeTakeFirst()
    if (row) return { id: row.id, privateKey: crypto.createPrivateKey(this.secrets.open(row.private_key)) }
    await this.make(false)
    return this.active()
  }

  /** A new active key; the others stay, inactive. */
  async rotate(): Promise<SigningKey> {
    const id = await this.make(true)
    return (await this.list()).find((k) => k.id === id) as SigningKey
  }

  async sign(text: string): Promise<{ keyId: string; signature: string }> {
    const key = await this.active()
    return { keyId: key.id, signature: crypto.sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64') }
  }

  async publicKey(id: string): Promise<string | undefined> {
    return (await this.db.selectFrom('signing_keys').select('public_key').where('id', '=', id).executeTakeFirst())?.public_key
  }

  private async make(replace: boolean): Promise<string> {
    const pair = crypto.generateKeyPairSync('ed25519')
    const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString()
    const privateKey = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const id = keyIdOf(publicKey)
    await this.db.transaction().execute(async (tx) => {
      if (replace) await tx.updateTable('signing_keys').set({ active: 0 }).where('active', '=', 1).execute()
      else if (await tx.selectFrom('signing_keys').select('id').where('active', '=', 1).executeTakeFirst()) return
      await tx
        .insertInto('signing_keys')
        .values({
          id,
          algorithm: 'ed25519',
          public_key: publicKey,
          private_key: this.secrets.seal(privateKey),
          created_at: Date.now(),
          active: 1,
        })
        .execute()
    })
    return id
  }
}
