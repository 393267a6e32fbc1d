import { hash, verify } from '@node-rs/argon2'

// OWASP's recommended argon2id parameters: 19 MiB of memory, 2 iterations, 1 degree of parallelism.
const options = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string): Promise<string> {
  return hash(password, options)
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

/**
 * A hash of nothing in particular, verified against when a user does not exist so that a wrong
 * user name costs the same time as a wrong password and timing does not reveal which it was.
 */
let decoy: Promise<string> | undefined
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('decoy-password-for-constant-time')
  return decoy
}
