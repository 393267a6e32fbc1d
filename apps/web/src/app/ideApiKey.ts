import { createApiKey, type Reauth, showApiKey } from '../features/profile/api/apiKey'
import { fetchProfile } from '../features/profile/api/profile'

/** Users signed in through an OAuth or SAML provider: they have no Trove password to give again. */
export const signsInWithProvider = (realm: string) => realm !== 'internal' && realm !== 'anonymous'

/** The user's API key, made first if they have none, so the tool being set up has one to use. */
async function showOrCreate(auth: Reauth): Promise<string> {
  const shown = await showApiKey(auth)
  if (shown.apiKey) return shown.apiKey
  const created = await createApiKey(auth)
  if (!created.apiKey) throw new Error('No API key was made')
  return created.apiKey
}

/** A user with a password gives it again; the key call carries it in its Basic header (packages §7). */
export const apiKeyWithPassword = (user: string, password: string) => showOrCreate({ user, password })

/**
 * Packages §4 "IDE integration", for OAuth and SAML users: the profile is fetched with an empty
 * password (the server takes the fresh provider sign-in instead), then the key is refreshed (made
 * when missing) and fetched.
 */
export async function apiKeyForProviderUser(user: string): Promise<string> {
  await fetchProfile('')
  return showOrCreate({ user, password: '' })
}
