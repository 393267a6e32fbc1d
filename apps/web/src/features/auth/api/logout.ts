import { apiRequest, csrfToken } from '../../../lib/api'

/**
 * Ends the session on the server. A browser without a session (no CSRF cookie: never signed in,
 * or already signed out) has nothing to end, so nothing is sent; an already-ended session is not
 * an error here.
 */
export async function logout(): Promise<void> {
  if (!csrfToken()) return
  try {
    await apiRequest<void>('/ui/auth/logout', { method: 'POST', handleAuthErrors: true })
  } catch (error) {
    if (!(error instanceof Error && 'status' in error && error.status === 401)) throw error
  }
}
