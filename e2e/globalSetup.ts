import { ONBOARDING_STATE_KEYS } from '@trove/contracts/shellConstants'
import { ADMIN_PASSWORD, ONBOARDED_URLS } from './playwright.config'

/**
 * Every server but the first-run one starts past onboarding: its admin closed the wizard (through
 * the real calls), so sign-in lands where the journeys expect. The first-run journey has its own.
 */
export default async function globalSetup(): Promise<void> {
  for (const url of ONBOARDED_URLS) {
    const login = await fetch(`${url}/ui/api/v1/ui/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
    })
    if (!login.ok) throw new Error(`${url}: sign-in failed (${login.status})`)
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0] ?? '')
    const csrf = cookies.find((c) => c.startsWith('trove_csrf='))?.slice('trove_csrf='.length) ?? ''
    const closed = await fetch(`${url}/ui/api/v1/ui/localStorage`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-csrf-token': csrf },
      body: JSON.stringify({ [ONBOARDING_STATE_KEYS.wizardClosed]: 'true' }),
    })
    if (closed.status !== 204) throw new Error(`${url}: the onboarding wizard was not closed (${closed.status})`)
  }
}
