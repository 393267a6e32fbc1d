import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Encrypts small secrets at rest with AES-256-GCM, under the master key: TROVE_MASTER_KEY (or its
 * file) where set, the same on every node of a cluster; else `<data dir>/secrets/master.key`
 * (mode 0600), made on first use, which nodes share only through a shared data dir. Other keys
 * (node-to-node calls, registry tokens) are derived from it, each for its own purpose.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static open(dataDir: string, configured?: Buffer): SecretBox {
    if (configured) return new SecretBox(configured)
    const file = path.join(dataDir, 'secrets', 'master.key')
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' })
      } catch (error) {
        // Another node made it first: use theirs.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
    }
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`)
    return new SecretBox(key)
  }

  /** A 32-byte key for one purpose (HKDF-SHA256 of the master key): the same on every node with the same master key. */
  derive(purpose: string): Buffer {
    return Buffer.from(crypto.hkdfSync('sha256', this.key, Buffer.alloc(0), `trove ${purpose}`, 32))
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12)
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv)
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.')
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.')
    if (version !== 'v1' || !iv || !tag || !data) throw new Error('not a sealed secret')
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
  }
}
