import { CONSOLE_API_BASE, CSRF_COOKIE, CSRF_HEADER } from '@trove/contracts/http'

/** Every console call goes under this prefix, followed by the path the specification gives. */
export const API_BASE = CONSOLE_API_BASE

/** An error answer from the server, with its status and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's stable name for this refusal, when it gives one (e.g. CREDENTIALS_EXPIRED). */
    readonly code?: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** Whether a call failed because the server has no such thing (404). */
export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404

/**
 * A call that got no answer at all (the network dropped it). It carries no message, so each
 * screen shows its own fallback text (shell §8) rather than the browser's "Failed to fetch"; it is
 * not an ApiError, so queries retry it as before.
 */
export class NoAnswerError extends Error {
  constructor(cause: unknown) {
    super('', { cause })
    this.name = 'NoAnswerError'
  }
}

interface Handlers {
  /** A call was refused for want of a session (401) */
  onUnauthorized?: (error: ApiError) => void
  /** A call was refused to the signed-in user (403) */
  onForbidden?: (error: ApiError) => void
}
let handlers: Handlers = {}

/** The app wires the 401 → sign-in and 403 → not-authorized reactions once, at start. */
export function configureApi(next: Handlers): void {
  handlers = next
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  query?: Record<string, string | number | boolean | undefined>
  /** Extra headers, e.g. the Basic re-authentication some calls ask for. */
  headers?: Record<string, string>
  /** A path outside the console API (e.g. /access/api/...): sent as it is, without the /ui/api/v1 prefix. */
  absolute?: boolean
  /** Let the caller handle 401/403 itself (sign-in forms do) instead of the app-wide reaction. */
  handleAuthErrors?: boolean
  signal?: AbortSignal
}

/** The session's CSRF token, for a call made without apiRequest (an upload with progress). */
export function csrfToken(): string | undefined {
  return readCookie(CSRF_COOKIE)
}

function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return decodeURIComponent(value.join('='))
  }
  return undefined
}

async function errorFrom(response: Response): Promise<ApiError> {
  // Only the server's own message: without one, each screen shows its fallback text (shell §8).
  let message = ''
  let code: string | undefined
  try {
    const body = (await response.json()) as { errors?: { message?: string; code?: string }[] }
    message = body.errors?.[0]?.message ?? message
    code = body.errors?.[0]?.code
  } catch {
    // not JSON: no message
  }
  return new ApiError(response.status, message, code)
}

/** The one fetch wrapper: same-origin credentials, the CSRF header, JSON in and out, typed errors. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET'
  const url = new URL(options.absolute ? path : `${API_BASE}${path}`, window.location.origin)
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value))
  }
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  // A file (a logo, say) goes as it is, typed by itself; anything else as JSON.
  const raw = typeof Blob !== 'undefined' && options.body instanceof Blob
  if (options.body !== undefined) headers['content-type'] = raw ? (options.body as Blob).type : 'application/json'
  if (method !== 'GET') {
    const csrf = csrfToken()
    if (csrf) headers[CSRF_HEADER] = csrf
  }
  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : raw ? (options.body as Blob) : JSON.stringify(options.body),
      signal: options.signal,
    })
  } catch (cause) {
    if (options.signal?.aborted) throw cause
    throw new NoAnswerError(cause)
  }
  if (!response.ok) {
    const error = await errorFrom(response)
    if (!options.handleAuthErrors) {
      if (error.status === 401) handlers.onUnauthorized?.(error)
      if (error.status === 403) handlers.onForbidden?.(error)
    }
    throw error
  }
  if (response.status === 204) return undefined as T
  const type = response.headers.get('content-type') ?? ''
  return (type.includes('application/json') ? await response.json() : await response.text()) as T
}

/** A Basic Authorization header value (UTF-8 safe, unlike btoa on its own). */
export function basicAuth(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `Basic ${btoa(binary)}`
}
