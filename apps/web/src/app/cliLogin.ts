/**
 * Shell §3 and §4.4: the CLI values jfClientSession, jfClientName and jfClientCode are kept in
 * browser storage when the sign-in URL carries them, so they survive the sign-in steps.
 */
export interface CliLogin {
  session: string
  name: string
  code: string
}

const KEY = 'trove.cliLogin'

export function saveCliLogin(search: Record<string, unknown>, storage: Storage = sessionStorage): void {
  const session = search.jfClientSession
  if (typeof session !== 'string' || session === '') return
  const value: CliLogin = {
    session,
    name: typeof search.jfClientName === 'string' ? search.jfClientName : 'a command-line client',
    code: String(search.jfClientCode ?? ''),
  }
  storage.setItem(KEY, JSON.stringify(value))
}

export function storedCliLogin(storage: Storage = sessionStorage): CliLogin | null {
  try {
    const value = JSON.parse(storage.getItem(KEY) ?? 'null') as CliLogin | null
    return value && typeof value.session === 'string' ? value : null
  } catch {
    return null
  }
}

export function clearCliLogin(storage: Storage = sessionStorage): void {
  storage.removeItem(KEY)
}
