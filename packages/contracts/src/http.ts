// Plain constants of the HTTP conversation between console and server. No zod here: the console's
// entry chunk imports this module and must stay small.

/** Header the console sends with the session's CSRF token on every mutating call. */
export const CSRF_HEADER = 'x-csrf-token'
/** Readable cookie that carries the CSRF token to the console. */
export const CSRF_COOKIE = 'trove_csrf'
/** httpOnly session cookie. */
export const SESSION_COOKIE = 'trove_session'
/** Every console call goes under this prefix, followed by the path the specification gives. */
export const CONSOLE_API_BASE = '/ui/api/v1'

/** Error code of a sign-in refused because the password expired (shell §8). */
export const CREDENTIALS_EXPIRED = 'CREDENTIALS_EXPIRED'
