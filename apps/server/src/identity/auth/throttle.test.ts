import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../../../test/testApp.js'
import { BAD_CREDENTIALS } from './service.js'
import { clientOf, lockMessage, reserveAttempt, ThrottlePolicy } from './throttle.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const login = (user: string, password: string, ip = '10.0.0.1') =>
  t.fastify.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
    remoteAddress: ip,
    payload: { user, password, type: 'login' },
  })

describe('sign-in throttling', () => {
  it('holds back failures progressively, then locks the name from that address even against the right password', async () => {
    const timings: number[] = []
    for (let i = 1; i <= ThrottlePolicy.pairLockAfter; i++) {
      const started = performance.now()
      const res = await login('admin', 'wrong')
      timings.push(performance.now() - started)
      expect(res.statusCode).toBe(401)
      expect(res.json().errors[0].message).toBe(BAD_CREDENTIALS)
    }
    // failures 3, 4 and 5 wait 250, 500 and 1000 ms
    expect(timings[2]).toBeGreaterThanOrEqual(240)
    expect(timings[3]).toBeGreaterThanOrEqual(490)
    expect(timings[4]).toBeGreaterThanOrEqual(990)

    const locked = await login('admin', ADMIN_PASSWORD)
    expect(locked.statusCode).toBe(403)
    expect(locked.json().errors[0].message).toBe('Too many failed sign-in attempts: try again in 5 minutes')
    // The lock is aimed at the guesser: the owner signs in from elsewhere, and that leaves the lock.
    expect((await login('admin', ADMIN_PASSWORD, '10.0.0.2')).statusCode).toBe(200)
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(403)

    // The lock ends after its time: here, by ageing the row as five minutes would.
    await t.app.db.kysely
      .updateTable('signin_failures')
      .set({ locked_until: Date.now() - 1 })
      .execute()
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200)
    // ... and a success clears the name's count from that address.
    const rows = await t.app.db.kysely.selectFrom('signin_failures').select('key').execute()
    expect(rows.map((r) => r.key)).not.toContain('pair:admin\n10.0.0.1')
  }, 30_000)

  it('treats an unknown user name exactly like a known one', async () => {
    for (let i = 0; i < ThrottlePolicy.pairLockAfter; i++) await reserveAttempt(t.app.db.kysely, 'ghost', '10.0.0.3')
    const res = await login('ghost', 'anything', '10.0.0.3')
    expect(res.statusCode).toBe(403)
    expect(res.json().errors[0].message).toMatch(/^Too many failed sign-in attempts/)
  })

  it('locks an address that fails for many user names', async () => {
    for (let i = 0; i < ThrottlePolicy.addressLockAfter; i++) await reserveAttempt(t.app.db.kysely, `user${i}`, '10.9.9.9')
    const res = await login('admin', ADMIN_PASSWORD, '10.9.9.9')
    expect(res.statusCode).toBe(403)
    expect((await login('admin', ADMIN_PASSWORD, '10.9.9.8')).statusCode).toBe(200)
  })

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one', () => {
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe(clientOf('2001:db8:1:2:ffff:1:2:3'))
    expect(clientOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(clientOf('2001:db8:1:3::1')).not.toBe(clientOf('2001:db8:1:2::1'))
    expect(clientOf('::ffff:10.1.2.3')).toBe('10.1.2.3')
  })

  it('locks an IPv6 client that changes its address within its /64', async () => {
    const statuses: number[] = []
    for (let i = 1; i <= ThrottlePolicy.addressLockAfter + 1; i++) {
      statuses.push((await login(`v6-user-${i}`, 'wrong', `2001:db8:7:7::${i.toString(16)}`)).statusCode)
    }
    expect(statuses.slice(0, ThrottlePolicy.addressLockAfter).every((s) => s === 401)).toBe(true)
    expect(statuses.at(-1)).toBe(403)
    expect((await login('admin', ADMIN_PASSWORD, '2001:db8:7:7:1234::9')).statusCode).toBe(403)
    expect((await login('admin', ADMIN_PASSWORD, '2001:db8:7:8::9')).statusCode).toBe(200)
  }, 60_000)

  it('words the lock in minutes', () => {
    expect(lockMessage(Date.now() + 60_000)).toBe('Too many failed sign-in attempts: try again in 1 minute')
    expect(lockMessage(Date.now() + 150_000)).toBe('Too many failed sign-in attempts: try again in 3 minutes')
  })
})

describe('a disabled user', () => {
  it('gets 403 with the right password', async () => {
    await t.app.db.kysely.updateTable('users').set({ disabled: 1 }).where('name', '=', 'admin').execute()
    try {
      const res = await login('admin', ADMIN_PASSWORD, '10.0.0.7')
      expect(res.statusCode).toBe(403)
      expect(res.json().errors[0].message).toBe('This user is disabled; ask an administrator to enable it')
    } finally {
      await t.app.db.kysely.updateTable('users').set({ disabled: 0 }).where('name', '=', 'admin').execute()
    }
  })
})
