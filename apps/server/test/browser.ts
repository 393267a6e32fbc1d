/**
 * A very small browser for server tests that cross sites over real HTTP: it keeps cookies per
 * host and port, follows redirects by hand, and lets the test see every hop.
 */
export class TestBrowser {
  private readonly jar = new Map<string, Map<string, string>>()

  cookies(url: string): Map<string, string> {
    const host = new URL(url).host
    let cookies = this.jar.get(host)
    if (!cookies) {
      cookies = new Map()
      this.jar.set(host, cookies)
    }
    return cookies
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const cookies = this.cookies(url)
    const headers: Record<string, string> = {}
    if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    let body: string | undefined
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(init.form).toString()
    }
    const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' })
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a))
      if (expired || value === '') cookies.delete(name)
      else cookies.set(name, value)
    }
    return res
  }

  /**
   * Follows redirects from `url` until `stop(url)` says so (the stopping response is returned
   * unread) or a page that is not a redirect arrives. `onPage` may answer a page with a form post.
   */
  async follow(
    url: string,
    stop: (url: URL) => boolean,
    onPage?: (url: URL, html: string) => { url: string; form: Record<string, string> } | null,
  ): Promise<{ url: URL; response: Response; hops: URL[] }> {
    const hops: URL[] = []
    let next: { url: string; form?: Record<string, string> } = { url }
    for (let i = 0; i < 20; i++) {
      const current = new URL(next.url)
      hops.push(current)
      const response = await this.request(current.href, next.form ? { form: next.form } : {})
      if (stop(current)) return { url: current, response, hops }
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        next = { url: new URL(location, current).href }
        continue
      }
      const html = await response.text()
      const post = onPage?.(current, html)
      if (!post) return { url: current, response: new Response(html, { status: response.status }), hops }
      next = { url: new URL(post.url, current).href, form: post.form }
    }
    throw new Error(`too many redirects from ${url}`)
  }
}

/** Answers oidc-provider's development login form with a user name (any password is accepted). */
export function signInAtProvider(user: string) {
  return (_url: URL, html: string) => {
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    if (!action || !html.includes('name="login"')) return null
    return { url: action.replaceAll('&amp;', '&'), form: { prompt: 'login', login: user, password: 'any-password' } }
  }
}
