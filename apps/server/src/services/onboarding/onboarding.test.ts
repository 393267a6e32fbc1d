import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { userWithToken } from '../../identity/access/testUsers.js'

const API = '/ui/api/v1/ui'

/** The onboarding questionnaire, the init status, the getting-started checklist and set-me-up. */
describe('onboarding', () => {
  let t: TestApp
  let admin: Session
  const call = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = sessionHeaders(admin),
  ) =>
    t.fastify.inject({ method, url: `${API}${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
  const initStatus = async () => (await call('GET', '/onboarding/initStatus')).json()

  beforeAll(async () => {
    t = await createTestApp()
    admin = await signIn(t.fastify)
  })
  afterAll(async () => {
    await t.close()
  })

  it('needs onboarding on a new instance; the default project exists once', async () => {
    expect(await initStatus()).toEqual({
      hasOnlyDefaultRepos: true,
      isOnboardingNeeded: true,
      isFirstLogin: true,
      isWizardClosed: false,
      userSeenGettingStarted: false,
    })
    const projects = await t.app.db.kysely
      .selectFrom('projects')
      .select(['key', 'display_name'])
      .where('key', '=', 'dflt')
      .execute()
    expect(projects).toEqual([{ key: 'dflt', display_name: 'Default Project' }])
  })

  it('saves each step as it is filled in, so a reload resumes there', async () => {
    expect(
      (
        await call('PUT', '/onboarding/personalization/purpose', { stepDataObject: { purpose: 'Commercial' }, isCompleted: true })
      ).json(),
    ).toEqual({
      stepDataObject: { purpose: 'Commercial' },
      isCompleted: true,
      isValid: true,
    })
    // Commercial needs a company: the details step is kept, but not valid yet.
    const partial = await call('PUT', '/onboarding/personalization/details', {
      stepDataObject: { role: 'Other', otherRole: 'Release manager' },
    })
    expect(partial.json()).toEqual({
      stepDataObject: { role: 'Other', otherRole: 'Release manager' },
      isCompleted: false,
      isValid: false,
    })
    const again = (await call('GET', '/onboarding/personalization')).json()
    expect(again.steps.purpose).toEqual({ stepDataObject: { purpose: 'Commercial' }, isCompleted: true, isValid: true })
    expect(again.steps.details.stepDataObject).toEqual({ role: 'Other', otherRole: 'Release manager' })
    expect(again.steps.features).toEqual({ stepDataObject: {}, isCompleted: false, isValid: false })
    expect(again.sentAt).toBeNull()
  })

  it('refuses a bad value per field and keeps the other steps', async () => {
    const bad = await call('PUT', '/onboarding/personalization/details', {
      stepDataObject: { role: 'Wizard', companyName: 'x'.repeat(101) },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toContain('details.role')
    expect(bad.json().errors[0].message).toContain('details.companyName: at most 100 characters')
    const features = await call('PUT', '/onboarding/personalization/features', {
      stepDataObject: { desiredFeature: ['Teleportation'] },
    })
    expect(features.statusCode).toBe(400)
    // Completing a step that still misses a field is refused, naming it.
    const early = await call('PUT', '/onboarding/personalization/details', {
      stepDataObject: { role: 'Other' },
      isCompleted: true,
    })
    expect(early.statusCode).toBe(400)
    expect(early.json().errors[0].message).toBe(
      'details.otherRole: This field is mandatory; details.companyName: This field is mandatory',
    )
    const kept = (await call('GET', '/onboarding/personalization')).json()
    expect(kept.steps.purpose.stepDataObject).toEqual({ purpose: 'Commercial' })
    expect(kept.steps.details.stepDataObject).toEqual({ role: 'Other', otherRole: 'Release manager' })
    // Sending with a step still invalid names what is missing.
    const send = await call('POST', '/onboarding/personalization/send')
    expect(send.statusCode).toBe(400)
    expect(send.json().errors[0].message).toBe(
      'details.companyName: This field is mandatory; features.desiredFeature: This field is mandatory',
    )
  })

  it('sends the merged steps: kept with the user, the steps cleared, the wizard closed', async () => {
    const details = { role: 'Software Developer', otherRole: 'ignored', companyName: 'Acme', ossProjectName: 'left-pad' }
    expect(
      (await call('PUT', '/onboarding/personalization/details', { stepDataObject: details, isCompleted: true })).statusCode,
    ).toBe(200)
    const features = { desiredFeature: ['Binary management', 'Container Registry'] }
    expect(
      (await call('PUT', '/onboarding/personalization/features', { stepDataObject: features, isCompleted: true })).statusCode,
    ).toBe(200)
    const sent = await call('POST', '/onboarding/personalization/send')
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json()).toEqual({
      purpose: 'Commercial',
      role: 'Software Developer',
      companyName: 'Acme',
      ossProjectName: 'left-pad',
      desiredFeature: ['Binary management', 'Container Registry'],
    })
    const after = (await call('GET', '/onboarding/personalization')).json()
    expect(after.sentAt).toBeGreaterThan(0)
    expect(after.steps.details.stepDataObject).toEqual({})
    const stored = await t.app.db.kysely.selectFrom('user_custom_data').select('data').executeTakeFirstOrThrow()
    expect(JSON.parse(stored.data).companyName).toBe('Acme')
    expect(await initStatus()).toMatchObject({ isWizardClosed: true, isOnboardingNeeded: false })
  })

  it('counts only the quick-setup samples as default repositories', async () => {
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    expect((await initStatus()).hasOnlyDefaultRepos).toBe(true)
    await createRepo(t.fastify, admin, 'team-libs', { rclass: 'local', packageType: 'generic' })
    expect((await initStatus()).hasOnlyDefaultRepos).toBe(false)
  })

  it('ticks the getting-started checklist from what exists, and remembers it was seen', async () => {
    const ticks = async (headers: Record<string, string> = sessionHeaders(admin)) =>
      Object.fromEntries(
        (
          (await call('GET', '/onboarding/gettingStarted', undefined, headers)).json().steps as { id: string; done: boolean }[]
        ).map((s) => [s.id, s.done]),
      )
    expect(await ticks()).toEqual({ repository: true, package: false, teammate: false, token: false, mfa: false })
    const put = await t.fastify.inject({
      method: 'PUT',
      url: '/artifactory/team-libs/a/b.txt',
      headers: sessionHeaders(admin),
      payload: 'hello',
    })
    expect(put.statusCode, put.body).toBe(201)
    const dev = await userWithToken(t.fastify, sessionHeaders(admin), 'dev')
    expect(await ticks()).toEqual({ repository: true, package: true, teammate: true, token: false, mfa: false })
    // The token step is the caller's own: dev made one to call with.
    expect((await ticks(dev)).token).toBe(true)
    const seen = await call('PUT', '/localStorage', { 'onboarding.seenGettingStarted': 'true' })
    expect(seen.statusCode).toBe(204)
    expect((await initStatus()).userSeenGettingStarted).toBe(true)
  })

  it('answers set-me-up with the base URL and the repository, 403 when the caller may not read it', async () => {
    const plain = await call('GET', '/setMeUp')
    expect(plain.json()).toEqual({ baseUrl: 'http://localhost:80', repository: null })
    const repo = await call('GET', '/setMeUp?repoKey=npm-local')
    expect(repo.json().repository).toEqual({ key: 'npm-local', packageType: 'npm', rclass: 'local' })
    expect((await call('GET', '/setMeUp?repoKey=nope')).statusCode).toBe(404)
    const other = await userWithToken(t.fastify, sessionHeaders(admin), 'other')
    expect((await call('GET', '/setMeUp?repoKey=npm-local', undefined, other)).statusCode).toBe(403)
    expect((await t.fastify.inject({ url: `${API}/setMeUp` })).statusCode).toBe(401)
    // Behind a proxy: the base URL an admin configured.
    const general = await call('GET', '/generalConfig')
    const set = await call('PUT', '/generalConfig', { ...(general.json() as object), baseUrl: 'https://trove.example.com/' })
    expect(set.statusCode, set.body).toBeLessThan(300)
    expect((await call('GET', '/setMeUp')).json().baseUrl).toBe('https://trove.example.com')
  })
})
