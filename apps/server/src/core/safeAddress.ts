import dns from 'node:dns/promises'
import net from 'node:net'
import ipaddr from 'ipaddr.js'
import { HttpError } from './errors.js'

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

/**
 * The IPv4 addresses an IPv6 address carries, in every form that reaches an IPv4 host: mapped
 * (`::ffff:a.b.c.d`, also written in hex), compatible (`::a.b.c.d`), SIIT-translated
 * (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`, and `64:ff9b:1::/48` in every RFC 6052 layout), 6to4 (`2002:AABB:CCDD::/16`)
 * and Teredo (`2001:0::/32`: its server, and its client XOR-ed in the last 32 bits).
 */
export function embeddedIpv4(address: string): string[] {
  if (!ipaddr.IPv6.isValid(address)) return []
  const bytes = ipaddr.IPv6.parse(address).toByteArray()
  const v4 = (at: number, xor = 0) =>
    bytes
      .slice(at, at + 4)
      .map((b) => b ^ xor)
      .join('.')
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0)
  const word = (i: number) => ((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)
  const found: string[] = []
  if (zero(0, 10) && word(10) === 0xffff) found.push(v4(12)) // mapped
  if (zero(0, 12) && !zero(12, 16)) found.push(v4(12)) // compatible (not :: or ::1 alone)
  if (zero(0, 8) && word(8) === 0xffff && word(10) === 0) found.push(v4(12)) // SIIT
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(4, 12)) found.push(v4(12)) // NAT64, well-known /96
  if (word(0) === 0x64 && word(2) === 0xff9b && word(4) === 1) {
    // The local-use /48 (RFC 8215) with any RFC 6052 layout: /48 (bytes 6-7, 9-10), /56 (7, 9-11), /64 (9-12), /96.
    const at = (...i: number[]) => i.map((k) => bytes[k] ?? 0).join('.')
    found.push(at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12), v4(12))
  }
  if (word(0) === 0x2002) found.push(v4(2)) // 6to4
  if (word(0) === 0x2001 && word(2) === 0) found.push(v4(4), v4(12, 0xff)) // Teredo
  return found
}

/**
 * True for an address a vendor or remote may not resolve to. An IPv6 address is judged by itself
 * and by every IPv4 address it carries, so no spelling of a metadata address gets through.
 */
export function isRefusedIp(address: string): boolean {
  const family = net.isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family !== 6) return true
  if (blocked.check(address, 'ipv6')) return true
  return embeddedIpv4(address).some((v4) => blocked.check(v4, 'ipv4'))
}

export interface CheckedTarget {
  url: URL
  /** The address the request must connect to: the one that was checked. */
  address: string
  family: 4 | 6
}

/** The host of a URL resolves to nothing: unreachable now, but not refused. */
export class Unresolved extends Error {}

/** How long a host's addresses are kept when its DNS answer says nothing of it, and the bounds of what it says (ms). */
export const DNS_DEFAULT_TTL_MS = 30_000
const DNS_MIN_TTL_MS = 5_000
const DNS_MAX_TTL_MS = 300_000
/** A host that does not resolve is asked again after this long (ms): a burst of requests is one question. */
const DNS_MISS_TTL_MS = 5_000
const DNS_CACHE_MAX = 10_000

/** Asks DNS for records' TTLs only, briefly (the addresses themselves come from the system's lookup). */
const ttlResolver = new dns.Resolver({ timeout: 2_000, tries: 1 })

const resolved = new Map<string, { until: number; answer: Promise<{ address: string; family: number }[]> }>()

/**
 * A host's addresses as the system resolves it (hosts file, then DNS: `dns.lookup`), asked once
 * however many requests want them at the same moment and kept for the DNS record's TTL (read with
 * a DNS query beside the lookup; DNS_DEFAULT_TTL_MS when that says nothing). Callers check the
 * addresses every time they use them, so a cached answer is never trusted beyond its checks.
 */
async function addressesOf(host: string): Promise<{ address: string; family: number }[]> {
  const now = Date.now()
  const known = resolved.get(host)
  if (known && known.until > now) return known.answer
  if (resolved.size >= DNS_CACHE_MAX) resolved.clear()
  const entry = { until: now + DNS_DEFAULT_TTL_MS, answer: Promise.resolve([] as { address: string; family: number }[]) }
  entry.answer = dns.lookup(host, { all: true, verbatim: true }).then(
    (addresses) => {
      entry.until = Date.now() + DNS_DEFAULT_TTL_MS
      // The record's TTL, when DNS has one for the host (not for a hosts-file name): it never delays the answer.
      ttlResolver
        .resolve4(host, { ttl: true })
        .then((records) => {
          const ms = Math.min(...records.map((r) => r.ttl)) * 1000
          if (Number.isFinite(ms)) entry.until = Date.now() + Math.min(DNS_MAX_TTL_MS, Math.max(DNS_MIN_TTL_MS, ms))
        })
        .catch(() => {})
      return addresses
    },
    () => {
      entry.until = Date.now() + DNS_MISS_TTL_MS
      throw new Unresolved(`${host} does not resolve`)
    },
  )
  resolved.set(host, entry)
  return entry.answer
}

/** Forgets every host's cached addresses (tests, and a configuration change that should be seen at once). */
export function forgetResolvedHosts(): void {
  resolved.clear()
}

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
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await addressesOf(host)
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
