import { vi } from 'vitest'

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * Stubs fetch with answers chosen by the path the call goes to (each answer gets the call's init,
 * to tell a PUT from a GET); unknown paths answer 404. Returns the mock, to look at the calls made.
 */
export function stubFetch(routes: Record<string, (init?: RequestInit) => Response | Promise<Response>>) {
  const mock = vi.fn(async (url: URL | string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://localhost').pathname
    const answer = routes[path]
    return answer ? answer(init) : json(404, { errors: [{ status: 404, message: `Not found: ${path}` }] })
  })
  vi.stubGlobal('fetch', mock)
  return mock
}

export const LOGIN_DATA = '/ui/api/v1/ui/auth/screen/loginRelatedData'
export const loginData =
  (overrides: object = {}) =>
  () =>
    json(200, {
      forgotPassword: false,
      canRememberMe: true,
      passwordAutocompleteEnabled: true,
      registrationEnabled: false,
      oauthProviders: [],
      ssoProviderLinksSAML: [],
      ssoProviderLink: null,
      loginIsExternal: false,
      isProvidersHidden: false,
      isUserPluginEnabled: false,
      logoutUrl: null,
      samlRegistrationId: 'trove-0000000000000000',
      ...overrides,
    })
