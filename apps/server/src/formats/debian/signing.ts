import * as openpgp from 'openpgp'
import type { AppContext } from '../../core/context.js'

/**
 * The instance's OpenPGP key, made at first use (EdDSA on Curve25519, which apt's gpgv verifies),
 * its private half sealed in the database. Every node of a cluster signs with the same key.
 */
export class OpenPgpKeys {
  private cached?: { fingerprint: string; key: openpgp.PrivateKey }
  private making?: Promise<void>

  constructor(private readonly ctx: AppContext) {}

  /** The active key's armored public half. */
  async publicKey(): Promise<string> {
    await this.ensure()
    const row = await this.ctx.db.kysely
      .selectFrom('openpgp_keys')
      .select('public_key')
      .where('active', '=', 1)
      .executeTakeFirstOrThrow()
    return row.public_key
  }

  /** Every key's armored public half, newest first (one text: apt reads several keys from one file). */
  async publicKeys(): Promise<string[]> {
    await this.ensure()
    const rows = await this.ctx.db.kysely.selectFrom('openpgp_keys').select('public_key').orderBy('created_at', 'desc').execute()
    return rows.map((r) => r.public_key)
  }

  /** `text` as a clear-signed message (InRelease). */
  async clearSign(text: string): Promise<string> {
    const key = await this.signingKey()
    const message = await openpgp.createCleartextMessage({ text })
    return openpgp.sign({ message, signingKeys: key, format: 'armored' })
  }

  /** An armored detached signature over `data`'s exact bytes (Release.gpg). */
  async detachedSign(data: Buffer): Promise<string> {
    const key = await this.signingKey()
    const message = await openpgp.createMessage({ binary: data })
    return openpgp.sign({ message, signingKeys: key, detached: true, format: 'armored' })
  }

  private async signingKey(): Promise<openpgp.PrivateKey> {
    await this.ensure()
    const row = await this.ctx.db.kysely
      .selectFrom('openpgp_keys')
      .select(['fingerprint', 'private_key'])
      .where('active', '=', 1)
      .executeTakeFirstOrThrow()
    if (this.cached?.fingerprint !== row.fingerprint) {
      const key = await openpgp.readPrivateKey({ armoredKey: this.ctx.secrets.open(row.private_key) })
      this.cached = { fingerprint: row.fingerprint, key }
    }
    return this.cached.key
  }

  private async ensure(): Promise<void> {
    const found = await this.ctx.db.kysely
      .selectFrom('openpgp_keys')
      .select('fingerprint')
      .where('active', '=', 1)
      .executeTakeFirst()
    if (found) return
    this.making ??= this.make().finally(() => {
      this.making = undefined
    })
    await this.making
  }

  /** Makes the first key; of two nodes making one at once, the second gives way. */
  private async make(): Promise<void> {
    const { privateKey, publicKey } = await openpgp.generateKey({
      type: 'ecc',
      curve: 'curve25519Legacy',
      userIDs: [{ name: 'Trove repository signing key' }],
      format: 'armored',
    })
    const fingerprint = (await openpgp.readKey({ armoredKey: publicKey })).getFingerprint().toUpperCase()
    await this.ctx.db.kysely.transaction().execute(async (tx) => {
      if (await tx.selectFrom('openpgp_keys').select('fingerprint').where('active', '=', 1).executeTakeFirst()) return
      await tx
        .insertInto('openpgp_keys')
        .values({
          fingerprint,
          public_key: publicKey,
          private_key: this.ctx.secrets.seal(privateKey),
          created_at: Date.now(),
          active: 1,
        })
        .execute()
    })
  }
}
