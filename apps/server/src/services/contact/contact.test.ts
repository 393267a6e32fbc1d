import net from 'node:net'
import { Messages } from '@trove/contracts/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureTestMail, mailText, startSmtp } from '../../../test/smtp.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { NO_MAIL_SERVER, NO_RECIPIENT } from './service.js'

let t: TestApp
let admin: Session
let alice: Session
let smtp: Awaited<ReturnType<typeof startSmtp>>

const SUBMIT = '/ui/api/v1/marketing/contact'
const LIST = '/ui/api/v1/ui/admin/contact/requests'
const SETTINGS = '/ui/api/v1/ui/admin/configuration/contact'

const form = (over: Record<string, unknown> = {}) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  country: 'United Kingdom',
  email: 'ada@example.com',
  helpOption: 'request demo',
  optionalComment: 'We would like to see replication.',
  marketoDataKey: 'trial-2024',
  context: 'contact us',
  ...over,
})

const submit = (session: Session | null, payload: object) =>
  t.fastify.inject({ method: 'POST', url: SUBMIT, headers: session ? sessionHeaders(session) : {}, payload })
const list = async (query = '') => {
  const res = await t.fastify.inject({ url: `${LIST}${query}`, headers: sessionHeaders(admin) })
  expect(res.statusCode).toBe(200)
  return res.json()
}
const setRecipient = (recipient: string, session = admin) =>
  t.fastify.inject({ method: 'PUT', url: SETTINGS, headers: sessionHeaders(session), payload: { recipient } })

/** A loopback port nothing listens on: a mail server there refuses the connection. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  return typeof address === 'object' && address ? address.port : 0
}

beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp()
  admin = await signIn(t.fastify)
  const created = await t.fastify.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/admin/users',
    headers: sessionHeaders(admin),
    payload: { name: 'alice', password: 'alice-password-1', email: 'alice@example.com' },
  })
  expect(created.statusCode).toBe(201)
  alice = await signIn(t.fastify, 'alice', 'alice-password-1')
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

describe('contact requests', () => {
  it('are kept as unsent when no mail server is configured, and the admin sees why', async () => {
    const res = await submit(alice, form())
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ delivery: 'unsent' })
    const page = await list()
    expect(page.total).toBe(1)
    expect(page.items[0]).toMatchObject({
      id: res.json().id,
      submittedBy: 'alice',
      firstName: 'Ada',
      lastName: 'Lovelace',
      country: 'United Kingdom',
      email: 'ada@example.com',
      helpOption: 'request demo',
      optionalComment: 'We would like to see replication.',
      marketoDataKey: 'trial-2024',
      context: 'contact us',
      delivery: { status: 'unsent', recipient: null, error: NO_MAIL_SERVER },
    })
    expect(smtp.mails).toHaveLength(0)
  })

  it('are kept as unsent when the mail server is set but no recipient is', async () => {
    expect((await configureTestMail(t.fastify, admin, smtp.port)).statusCode).toBe(200)
    const res = await submit(alice, form({ helpOption: 'technical support' }))
    expect(res.json()).toMatchObject({ delivery: 'unsent' })
    expect((await list()).items[0].delivery).toMatchObject({ status: 'unsent', error: NO_RECIPIENT })
    expect(smtp.mails).toHaveLength(0)
  })

  it('are mailed to the address the admin set, through the configured mail server', async () => {
    expect((await setRecipient('sales@example.com')).json()).toEqual({ recipient: 'sales@example.com' })
    const res = await submit(alice, form({ helpOption: 'contact sales', optionalComment: 'Pricing for 40 seats?' }))
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ delivery: 'sent' })
    const mail = await smtp.next()
    expect(mail.to).toEqual(['sales@example.com'])
    expect(mail.from).toBe('trove@example.com')
    const text = mailText(mail.raw)
    expect(text).toContain('Subject: Contact request: Contact sales (Ada Lovelace)')
    expect(text).toMatch(/Reply-To: ada@example\.com/i)
    expect(text).toContain('E-mail: ada@example.com')
    expect(text).toContain('Country: United Kingdom')
    expect(text).toContain('Signed in as: alice')
    expect(text).toContain('Campaign key: trial-2024')
    expect(text).toContain('Pricing for 40 seats?')
    const newest = (await list()).items[0]
    expect(newest).toMatchObject({ id: res.json().id, delivery: { status: 'sent', recipient: 'sales@example.com', error: null } })
    expect(newest.delivery.at).toBeGreaterThanOrEqual(newest.createdAt)
  })

  it('are kept as failed when the mail server cannot be reached', async () => {
    expect((await configureTestMail(t.fastify, admin, await closedPort())).statusCode).toBe(200)
    const res = await submit(admin, form({ firstName: 'Grace', lastName: 'Hopper', optionalComment: undefined }))
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ delivery: 'failed' })
    const newest = (await list()).items[0]
    expect(newest).toMatchObject({ firstName: 'Grace', submittedBy: 'admin', optionalComment: null })
    expect(newest.delivery.status).toBe('failed')
    expect(newest.delivery.recipient).toBe('sales@example.com')
    expect(newest.delivery.error).toMatch(/ECONNREFUSED|connect/i)
  })

  it('are listed newest first, a page at a time', async () => {
    const all = await list()
    expect(all.total).toBe(4)
    const ids = all.items.map((r: { id: number }) => r.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const second = await list('?page=2&pageSize=3')
    expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 })
    expect(second.items.map((r: { id: number }) => r.id)).toEqual([ids[3]])
  })
})

describe('a bad request', () => {
  const refused = async (payload: object) => {
    const before = (await list()).total
    const res = await submit(alice, payload)
    expect(res.statusCode).toBe(400)
    expect((await list()).total).toBe(before)
    return res.json().errors[0].message as string
  }

  it('is refused with the field and the rule, and nothing is kept', async () => {
    expect(await refused(form({ email: 'ada@example' }))).toBe(`Invalid request: body.email: ${Messages.invalidEmail}`)
    expect(await refused(form({ email: 'ada lovelace@example.com' }))).toContain(`body.email: ${Messages.invalidEmail}`)
    expect(await refused(form({ optionalComment: 'x'.repeat(2001) }))).toBe(
      'Invalid request: body.optionalComment: A comment can have at most 2000 characters',
    )
    expect(await refused(form({ firstName: '   ' }))).toBe(`Invalid request: body.firstName: ${Messages.fieldMandatory}`)
    const { country: _, ...noCountry } = form()
    expect(await refused(noCountry)).toContain('body.country')
    expect(await refused(form({ helpOption: 'free beer' }))).toBe(`Invalid request: body.helpOption: ${Messages.fieldMandatory}`)
  })

  it('takes a comment of exactly the limit', async () => {
    const res = await submit(alice, form({ optionalComment: 'x'.repeat(2000) }))
    expect(res.statusCode).toBe(201)
  })
})

describe('who may', () => {
  it('send: anyone signed in; not an anonymous caller', async () => {
    expect((await submit(null, form())).statusCode).toBe(401)
  })

  it('list the requests and set the recipient: administrators only', async () => {
    const asAlice = await t.fastify.inject({ url: LIST, headers: sessionHeaders(alice) })
    expect(asAlice.statusCode).toBe(403)
    expect((await t.fastify.inject({ url: LIST })).statusCode).toBe(401)
    expect((await t.fastify.inject({ url: SETTINGS, headers: sessionHeaders(alice) })).statusCode).toBe(403)
    expect((await setRecipient('me@example.com', alice)).statusCode).toBe(403)
    expect((await t.fastify.inject({ url: SETTINGS, headers: sessionHeaders(admin) })).json()).toEqual({
      recipient: 'sales@example.com',
    })
  })

  it('set the recipient to a valid address or to none', async () => {
    const bad = await setRecipient('not an address')
    expect(bad.statusCode).toBe(400)
    expect((await setRecipient('')).json()).toEqual({ recipient: '' })
  })
})
