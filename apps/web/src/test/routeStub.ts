import { vi } from 'vitest'
import { json } from './fetchStub'

export interface StubCall {
  method: string
  path: string
  search: URLSearchParams
  headers: Record<string, string>
  body: BodyInit | null | undefined
}

/**
 * Stubs fetch with answers chosen by method and path ("POST /ui/api/v1/…"); unknown calls answer
 * 404. Each answer gets the call, so it can look at the query or body. Returns the calls made.
 */
export function stubRoutes(routes: Record<string, (call: StubCall) => Response | Promise<Response>>) {
  const calls: StubCall[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: URL | string, init: RequestInit = {}) => {
      const u = new URL(String(url), 'http://localhost')
      const call: StubCall = {
        method: init.method ?? 'GET',
        path: u.pathname,
        search: u.searchParams,
        headers: (init.headers ?? {}) as Record<string, string>,
        body: init.body,
      }
      calls.push(call)
      const answer = routes[`${call.method} ${call.path}`]
      return answer ? answer(call) : json(404, { errors: [{ status: 404, message: `Not found: ${call.method} ${call.path}` }] })
    }),
  )
  return calls
}

/** The JSON a call sent. */
export const sentJson = (call: StubCall | undefined): unknown => JSON.parse(String(call?.body))
