import dns from 'node:dns/promises'
import net from 'node:net'
import { HttpError } from '../../core/errors.js'

/** Why a vendor address was refused before anything was sent to it (server-side request forgery). */
export class RefusedAddress extends HttpError {
  constructor(message: string) {
    super(400, `url: ${message}`, 'REFUSED_ADDRESS')
  }
}

const blocked = new net.BlockList()
// Link-local addresses, where cloud metadata services answer (169.254.169.254), the IPv6 metadata
// address of one large cloud (fd00:ec2::254), and the unspecified addresses. Loopback and private
// ranges stay allowed: self-hosted vendors live there.
blocked.addSubnet('169.254.0.0', 16, 'ipv4')
blocked.addSubnet('fe80::', 10, 'ipv6')
blocked.addSubnet('fd00:ec2::', 32, 'ipv6')
blocked.addAddress('0.0.0.0', 'ipv4')
blocked.addAddress('::', 'ipv6')

/** True for an address a vendor may not resolve to; IPv4-mapped IPv6 addresses are judged as IPv4. */
export function isRefusedIp(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4')
  const family = net.isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family === 6) return blocked.check(address, 'ipv6')
  return true
}

export interface CheckedTarget {
  url: URL
  /** The address the request must connect to: the one that was checked. */
  address: string
  family: 4 | 6
}

/** The host of a URL resolves to nothing: unreachable now, but not refused. */
export class Unresolved extends Error {}

/**
 * The URL and every address its host resolves to, after checking that it is http or https without
 * credentials in it and that no address is in the refused ranges (RefusedAddress); a host that
 * does not resolve throws Unresolved.
 */
export async function resolveTarget(raw: string | URL): Promise<{ url: URL; addresses: { address: string; family: 4 | 6 }[] }> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new RefusedAddress('not a valid URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedAddress('only http and https are allowed')
  if (url.username || url.password) throw new RefusedAddress('credentials belong in the user name and token fields')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: { address: string; family: number }[]
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }]
  else {
    try {
      addresses = await dns.lookup(host, { all: true, verbatim: true })
    } catch {
      throw new Unresolved(`${host} does not resolve`)
    }
  }
  if (addresses.length === 0) throw new Unresolved(`${host} does not resolve`)
  const refused = addresses.find((a) => isRefusedIp(a.address))
  if (refused) throw new RefusedAddress(`${host} resolves to ${refused.address}, a link-local or metadata address`)
  return { url, addresses: addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })) }
}

/**
 * Checks a vendor URL: http or https only, no credentials in it, and every address its host
 * resolves to outside the refused ranges. Connecting to the returned address (not resolving
 * again) closes the window in which DNS could answer differently.
 */
export async function checkTarget(raw: string | URL): Promise<CheckedTarget> {
  let resolved: Awaited<ReturnType<typeof resolveTarget>>
  try {
    resolved = await resolveTarget(raw)
  } catch (error) {
    if (error instanceof Unresolved) throw new RefusedAddress(error.message)
    throw error
  }
  const first = resolved.addresses[0] as { address: string; family: 4 | 6 }
  return { url: resolved.url, address: first.address, family: first.family }
}
