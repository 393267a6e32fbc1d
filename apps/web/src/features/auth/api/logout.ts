import { apiRequest } from '../../../lib/api'

/** Ends the session on the server. An already-ended session is not an error here. */
export async function logout(): Promise<void> {
  try {
    await apiRequest<void>('/ui/auth/logout', { method: 'POST', handleAuthErrors: true })
  } catch (error) {
    if (!(error instanceof Error && 'status' in error && error.status === 401)) throw error
  }
}
