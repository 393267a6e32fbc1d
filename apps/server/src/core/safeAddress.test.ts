import dns from 'node:dns/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'
import { embeddedIpv4, forgetResolvedHosts, isRefusedIp, resolveTarget } from './safeAddress.js'

/**
 * Finding 6 of the security probe: the upstream-URL filter let `[::a9fe:a9fe]` through. Every IPv6
 * spelling that reaches a refused IPv4 address is refused as that address is.
 */
const METADATA = [
  '169.254.169.254',
  '::ffff:169.254.169.254',
  '::ffff:a9fe:a9fe', // mapped, in hex
  '::a9fe:a9fe', // compatible
  '::169.254.169.254',
  '::ffff:0:a9fe:a9fe', // SIIT
  '64:ff9b::a9fe:a9fe', // NAT64
  '64:ff9b:1::a9fe:a9fe', // NAT64, local use, /96 layout
  '64:ff9b:1:a9fe:a9:fe00::', // NAT64, local use, /48 layout
  '64:ff9b:1:a9:fea9:fe00::', // /56 layout
  '64:ff9b:1:0:a9:fea9:fe00:0', // /64 layout
  '2002:a9fe:a9fe::1', // 6to4
  '2001:0:a9fe:a9fe::1', // Teredo server
  '2001:0:4136:e378:8000:63bf:5601:5601', // Teredo client 169.254.169.254 XOR ff
  '0:0:0:0:0:ffff:a9fe:a9fe',
  'fe80::1',
  'fd00:ec2::254',
  '0.0.0.0',
  '::',
]
const ALLOWED = [
  '127.0.0.1',
  '::1',
  '10.0.0.5',
  '192.168.1.2',
  '::ffff:10.0.0.5',
  '2001:db8::1',
  '64:ff9b::a00:5',
  '2002:0a00:0005::1',
]

describe('refused addresses', () => {
  it('refuse every spelling of a link-local or metadata address', () => {
    expect(METADATA.filter((a) => !isRefusedIp(a))).toEqual([])
  })

  it('allow loopback, private and ordinary addresses, in any spelling', () => {
    expect(ALLOWED.filter((a) => isRefusedIp(a))).toEqual([])
  })

  it('find the IPv4 address each form carries', () => {
    expect(embeddedIpv4('::ffff:a9fe:a9fe')).toContain('169.254.169.254')
    expect(embeddedIpv4('2002:a9fe:a9fe::1')).toEqual(['169.254.169.254'])
    expect(embeddedIpv4('2001:db8::1')).toEqual([])
  })
})

describe('a remote repository’s URL', () => {
  let t: TestApp
  let admin: Session
  beforeAll(async () => {
    t = await createTestApp()
    admin = await signIn(t.fastify)
  })
  afterAll(() => t.close())

  it('is refused when its host is a metadata address in any IPv6 form', async () => {
    const hosts = [
      '[::a9fe:a9fe]',
      '[::ffff:a9fe:a9fe]',
      '[64:ff9b::a9fe:a9fe]',
      '[2002:a9fe:a9fe::]',
      '0xa9fea9fe',
      '2852039166',
    ]
    for (const [i, host] of hosts.entries()) {
      const res = await t.fastify.inject({
        method: 'PUT',
        url: `/api/repositories/meta-${i}`,
        headers: sessionHeaders(admin),
        payload: { rclass: 'remote', packageType: 'npm', url: `http://${host}/latest/meta-data/` },
      })
      expect(res.statusCode, host).toBe(400)
      expect(res.json().errors[0].message, host).toMatch(/^url: .*link-local or metadata address/)
    }
  })
})

describe('resolving upstream host names', () => {
  it('asks the system once for a host however many requests want it at once, keeps the answer, and checks it at every use', async () => {
    forgetResolvedHosts()
    const lookup = vi.spyOn(dns, 'lookup')
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => resolveTarget('http://localhost:4873/pkg')))
      expect(answers.every((a) => a.addresses.length > 0)).toBe(true)
      expect(lookup).toHaveBeenCalledTimes(1)
      await resolveTarget('http://localhost:4873/other')
      expect(lookup).toHaveBeenCalledTimes(1)
      forgetResolvedHosts()
      await resolveTarget('http://localhost:4873/again')
      expect(lookup).toHaveBeenCalledTimes(2)
      // A kept answer is checked again: a host that resolved to a metadata address is refused each time.
      lookup.mockResolvedValue([{ address: '169.254.169.254', family: 4 }] as never)
      forgetResolvedHosts()
      await expect(resolveTarget('http://metadata.example/')).rejects.toThrow(/link-local or metadata/)
      await expect(resolveTarget('http://metadata.example/')).rejects.toThrow(/link-local or metadata/)
      expect(lookup).toHaveBeenCalledTimes(3)
    } finally {
      lookup.mockRestore()
      forgetResolvedHosts()
    }
  })

  it('asks again soon for a host that does not resolve, once for a burst', async () => {
    forgetResolvedHosts()
    const lookup = vi
      .spyOn(dns, 'lookup')
      .mockRejectedValue(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }))
    try {
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => resolveTarget('http://nowhere.invalid/')))
      expect(results.every((r) => r.status === 'rejected')).toBe(true)
      expect(lookup).toHaveBeenCalledTimes(1)
    } finally {
      lookup.mockRestore()
      forgetResolvedHosts()
    }
  })
})
