import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type VendorName = 'github' | 'gitlab' | 'bitbucket' | 'bitbucketServer'

export interface VendorOptions {
  userName: string
  token: string
  /** Full names (owner/name, or PROJECT/slug on Bitbucket Server) of the repositories the token sees. */
  repositories: string[]
  /** Where each repository's clone link points. */
  cloneUrl: (fullName: string) => string
}

export interface VendorStandIn {
  /** The URL an administrator types for this vendor. */
  url: string
  /** Every request: its path and query, and the credential header the vendor reads. */
  requests: { path: string; credential: string }[]
  /** From now on the vendor refuses every token (a revoked token). */
  refuse(on: boolean): void
  close(): Promise<void>
}

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`

/** The exact credential each vendor's API documents, and the header it reads it from. */
export function expectedApiCredential(vendor: VendorName, userName: string, token: string) {
  switch (vendor) {
    case 'github':
    case 'bitbucketServer':
      return { header: 'authorization', value: `Bearer ${token}` }
    case 'gitlab':
      return { header: 'private-token', value: token }
    case 'bitbucket':
      return { header: 'authorization', value: basic(userName, token) }
  }
}

/** The Authorization header each vendor's git service takes over HTTPS. */
export function expectedGitAuthorization(vendor: VendorName, userName: string, token: string): string {
  return vendor === 'bitbucketServer' ? `Bearer ${token}` : basic(userName, token)
}

type Handler = (url: URL, base: string) => { status?: number; headers?: Record<string, string>; body: unknown } | undefined

function page<T>(items: T[], start: number, size: number) {
  return { slice: items.slice(start, start + size), more: start + size < items.length }
}

/** Each vendor's documented endpoints, answered from the options. */
function handlers(vendor: VendorName, o: VendorOptions): Handler {
  const find = (fullName: string) => o.repositories.find((r) => r === fullName)
  switch (vendor) {
    case 'github': {
      const repo = (r: string) => ({ full_name: r, clone_url: o.cloneUrl(r), default_branch: 'main', private: true })
      return (url, base) => {
        const p = url.pathname
        if (p === '/api/v3/user') return { body: { login: o.userName, id: 1 } }
        if (p === '/api/v3/user/repos') {
          const size = Number(url.searchParams.get('per_page') ?? 30)
          const n = Number(url.searchParams.get('page') ?? 1)
          const { slice, more } = page(o.repositories, (n - 1) * size, size)
          const link = more ? `<${base}/api/v3/user/repos?per_page=${size}&page=${n + 1}>; rel="next"` : ''
          const headers: Record<string, string> = link ? { link } : {}
          return { headers, body: slice.map(repo) }
        }
        const m = /^\/api\/v3\/repos\/([^/]+\/[^/]+)$/.exec(p)
        const r = m?.[1] && find(decodeURIComponent(m[1]))
        return r ? { body: repo(r) } : undefined
      }
    }
    case 'gitlab': {
      const repo = (r: string) => ({
        path_with_namespace: r,
        http_url_to_repo: o.cloneUrl(r),
        default_branch: 'main',
        visibility: 'private',
      })
      return (url) => {
        const p = url.pathname
        if (p === '/api/v4/user') return { body: { id: 1, username: o.userName, name: 'Stand-in User' } }
        if (p === '/api/v4/projects') {
          const size = Number(url.searchParams.get('per_page') ?? 20)
          const n = Number(url.searchParams.get('page') ?? 1)
          const { slice, more } = page(o.repositories, (n - 1) * size, size)
          return { headers: { 'x-page': String(n), 'x-next-page': more ? String(n + 1) : '' }, body: slice.map(repo) }
        }
        const m = /^\/api\/v4\/projects\/([^/]+)$/.exec(url.pathname)
        const r = m?.[1] && find(decodeURIComponent(m[1]))
        return r ? { body: repo(r) } : undefined
      }
    }
    case 'bitbucket': {
      const repo = (r: string) => ({
        full_name: r,
        is_private: true,
        mainbranch: { name: 'main' },
        links: { clone: [{ name: 'https', href: o.cloneUrl(r).replace('://', `://${o.userName}@`) }] },
      })
      return (url, base) => {
        const p = url.pathname
        if (p === '/2.0/user') return { body: { username: o.userName, display_name: 'Stand-in User' } }
        if (p === '/2.0/repositories') {
          const size = Number(url.searchParams.get('pagelen') ?? 10)
          const n = Number(url.searchParams.get('page') ?? 1)
          const { slice, more } = page(o.repositories, (n - 1) * size, size)
          const next = more ? `${base}/2.0/repositories?role=member&pagelen=${size}&page=${n + 1}` : undefined
          return { body: { pagelen: size, page: n, values: slice.map(repo), ...(next ? { next } : {}) } }
        }
        const m = /^\/2\.0\/repositories\/([^/]+\/[^/]+)$/.exec(p)
        const r = m?.[1] && find(decodeURIComponent(m[1]))
        return r ? { body: repo(r) } : undefined
      }
    }
    case 'bitbucketServer': {
      const repo = (r: string) => {
        const [key, slug] = r.split('/')
        return { slug, name: slug, public: false, project: { key }, links: { clone: [{ name: 'http', href: o.cloneUrl(r) }] } }
      }
      return (url) => {
        const p = url.pathname
        if (p === `/rest/api/1.0/users/${o.userName}`)
          return { body: { name: o.userName, slug: o.userName, displayName: 'Stand-in User' } }
        if (p === '/rest/api/1.0/repos') {
          const limit = Number(url.searchParams.get('limit') ?? 25)
          const start = Number(url.searchParams.get('start') ?? 0)
          const { slice, more } = page(o.repositories, start, limit)
          return {
            body: {
              size: slice.length,
              limit,
              start,
              isLastPage: !more,
              values: slice.map(repo),
              ...(more ? { nextPageStart: start + limit } : {}),
            },
          }
        }
        const m = /^\/rest\/api\/1\.0\/projects\/([^/]+)\/repos\/([^/]+)$/.exec(p)
        const r = m?.[1] && m[2] && find(`${decodeURIComponent(m[1])}/${decodeURIComponent(m[2])}`)
        return r ? { body: repo(r) } : undefined
      }
    }
  }
}

/**
 * A loopback stand-in for a git vendor's REST API: it answers the documented calls Trove makes and
 * checks that each carries exactly the credential header that vendor expects.
 */
export async function startVendor(vendor: VendorName, o: VendorOptions): Promise<VendorStandIn> {
  const requests: VendorStandIn['requests'] = []
  const expected = expectedApiCredential(vendor, o.userName, o.token)
  const answer = handlers(vendor, o)
  let refusing = false
  let base = ''
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base)
    const credential = String(req.headers[expected.header] ?? '')
    requests.push({ path: `${url.pathname}${url.search}`, credential })
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
    if (refusing || credential !== expected.value) return json(401, { message: 'Bad credentials' })
    const result = answer(url, base)
    if (!result) return json(404, { message: 'Not Found' })
    return json(result.status ?? 200, result.body, result.headers)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    requests,
    refuse: (on) => {
      refusing = on
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** A server that redirects every request to `location` (a vendor URL that leads somewhere it may not). */
export async function startRedirector(
  location: string,
): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0
  const server = http.createServer((_req, res) => {
    hits++
    res.writeHead(302, { location }).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
