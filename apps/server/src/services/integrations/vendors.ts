import type { GitRepository, GitVendorName } from '@trove/contracts/gitIntegrations'
import { GIT_REPO_PAGE_SIZE } from '@trove/contracts/gitIntegrations'

/** What a connection needs: the vendor URL the administrator gave, the user name and the token. */
export interface VendorCredentials {
  url: string
  userName: string
  token: string
}

/** One vendor's documented API: where its "current user" and repository calls are, and how it wants the token. */
export interface GitVendorApi {
  /** The API's root for the URL the administrator gave. */
  apiBase(url: string): string
  /** The header(s) the vendor's API expects the credentials in. */
  apiHeaders(c: VendorCredentials): Record<string, string>
  /** The vendor's documented "current user" call, relative to the API root. */
  currentUserPath(c: VendorCredentials): string
  /** The user name in that call's answer. */
  userOf(body: unknown): string | undefined
  /** One page of the repositories the token can see (page numbers start at 1). */
  repositoriesPath(page: number): string
  /** The repositories of a page, and whether another page follows. */
  repositoriesOf(
    body: unknown,
    headers: Record<string, string | string[] | undefined>,
    page: number,
  ): { repositories: GitRepository[]; hasNext: boolean }
  /** One repository by its full name. */
  repositoryPath(fullName: string): string
  repositoryOf(body: unknown): GitRepository | undefined
  /** The header git sends when it clones over HTTP(S). */
  gitHeader(c: VendorCredentials): string
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {})
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const trim = (url: string) => url.replace(/\/+$/, '')
const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`
/** Clone links may carry a user name (Bitbucket puts one there); credentials travel in a header instead. */
const withoutUser = (href: string) => {
  const u = new URL(href)
  u.username = ''
  u.password = ''
  return u.toString()
}
const segments = (fullName: string) => fullName.split('/').map(encodeURIComponent).join('/')

/** A page has a successor when the RFC 8288 Link header names one (GitHub). */
const linkHasNext = (link: string | string[] | undefined) => /rel="next"/.test(String(link ?? ''))

/**
 * GitHub and GitHub Enterprise Server: github.com's API is api.github.com; an Enterprise server
 * answers under /api/v3. Tokens go as `Authorization: Bearer` (REST docs, "Authenticating").
 */
const github: GitVendorApi = {
  apiBase(url) {
    const u = new URL(url || 'https://api.github.com')
    if (u.hostname === 'github.com' || u.hostname === 'api.github.com') return 'https://api.github.com'
    const base = trim(u.toString())
    return base.endsWith('/api/v3') ? base : `${base}/api/v3`
  },
  apiHeaders: (c) => ({
    authorization: `Bearer ${c.token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  }),
  currentUserPath: () => '/user',
  userOf: (body) => str(obj(body).login),
  repositoriesPath: (page) => `/user/repos?per_page=${GIT_REPO_PAGE_SIZE}&page=${page}&sort=full_name`,
  repositoriesOf: (body, headers) => ({
    repositories: list(body).flatMap((r) => github.repositoryOf(r) ?? []),
    hasNext: linkHasNext(headers.link),
  }),
  repositoryPath: (fullName) => `/repos/${segments(fullName)}`,
  repositoryOf(body) {
    const r = obj(body)
    const fullName = str(r.full_name)
    const cloneUrl = str(r.clone_url)
    if (!fullName || !cloneUrl) return undefined
    return { fullName, cloneUrl, defaultBranch: str(r.default_branch) ?? null, private: r.private === true }
  },
  // Git over HTTPS takes the token as the password of basic authentication.
  gitHeader: (c) => `Authorization: ${basic(c.userName, c.token)}`,
}

/** GitLab (gitlab.com or self-managed): REST API v4, personal access tokens in the PRIVATE-TOKEN header. */
const gitlab: GitVendorApi = {
  apiBase: (url) => `${trim(url || 'https://gitlab.com')}/api/v4`,
  apiHeaders: (c) => ({ 'private-token': c.token }),
  currentUserPath: () => '/user',
  userOf: (body) => str(obj(body).username),
  repositoriesPath: (page) =>
    `/projects?membership=true&simple=true&order_by=path&sort=asc&per_page=${GIT_REPO_PAGE_SIZE}&page=${page}`,
  repositoriesOf: (body, headers) => ({
    repositories: list(body).flatMap((r) => gitlab.repositoryOf(r) ?? []),
    hasNext: Boolean(str(headers['x-next-page'])),
  }),
  repositoryPath: (fullName) => `/projects/${encodeURIComponent(fullName)}`,
  repositoryOf(body) {
    const r = obj(body)
    const fullName = str(r.path_with_namespace)
    const cloneUrl = str(r.http_url_to_repo)
    if (!fullName || !cloneUrl) return undefined
    return { fullName, cloneUrl, defaultBranch: str(r.default_branch) ?? null, private: r.visibility !== 'public' }
  },
  gitHeader: (c) => `Authorization: ${basic(c.userName, c.token)}`,
}

/** Bitbucket Cloud: API 2.0 at api.bitbucket.org; basic authentication with the user name and an app password. */
const bitbucket: GitVendorApi = {
  apiBase(url) {
    const u = new URL(url || 'https://api.bitbucket.org')
    if (u.hostname === 'bitbucket.org' || u.hostname === 'api.bitbucket.org') return 'https://api.bitbucket.org/2.0'
    return `${trim(u.toString())}/2.0`
  },
  apiHeaders: (c) => ({ authorization: basic(c.userName, c.token) }),
  currentUserPath: () => '/user',
  userOf: (body) => str(obj(body).username) ?? str(obj(body).display_name),
  repositoriesPath: (page) => `/repositories?role=member&sort=full_name&pagelen=${GIT_REPO_PAGE_SIZE}&page=${page}`,
  repositoriesOf: (body) => ({
    repositories: list(obj(body).values).flatMap((r) => bitbucket.repositoryOf(r) ?? []),
    hasNext: Boolean(str(obj(body).next)),
  }),
  repositoryPath: (fullName) => `/repositories/${segments(fullName)}`,
  repositoryOf(body) {
    const r = obj(body)
    const fullName = str(r.full_name)
    const href = list(obj(r.links).clone)
      .map(obj)
      .find((l) => l.name === 'https')?.href
    if (!fullName || !str(href)) return undefined
    return {
      fullName,
      cloneUrl: withoutUser(href as string),
      defaultBranch: str(obj(r.mainbranch).name) ?? null,
      private: r.is_private === true,
    }
  },
  gitHeader: (c) => `Authorization: ${basic(c.userName, c.token)}`,
}

/** Bitbucket Server and Data Center: REST API 1.0; HTTP access tokens as `Authorization: Bearer`. */
const bitbucketServer: GitVendorApi = {
  apiBase: (url) => `${trim(url)}/rest/api/1.0`,
  apiHeaders: (c) => ({ authorization: `Bearer ${c.token}` }),
  currentUserPath: (c) => `/users/${encodeURIComponent(c.userName)}`,
  userOf: (body) => str(obj(body).slug) ?? str(obj(body).name),
  repositoriesPath: (page) => `/repos?limit=${GIT_REPO_PAGE_SIZE}&start=${(page - 1) * GIT_REPO_PAGE_SIZE}`,
  repositoriesOf: (body) => ({
    repositories: list(obj(body).values).flatMap((r) => bitbucketServer.repositoryOf(r) ?? []),
    hasNext: obj(body).isLastPage === false,
  }),
  repositoryPath(fullName) {
    const [project = '', slug = ''] = fullName.split('/')
    return `/projects/${encodeURIComponent(project)}/repos/${encodeURIComponent(slug)}`
  },
  repositoryOf(body) {
    const r = obj(body)
    const project = str(obj(r.project).key)
    const slug = str(r.slug)
    const href = list(obj(r.links).clone)
      .map(obj)
      .find((l) => l.name === 'http')?.href
    if (!project || !slug || !str(href)) return undefined
    return {
      fullName: `${project}/${slug}`,
      cloneUrl: withoutUser(href as string),
      defaultBranch: null,
      private: r.public !== true,
    }
  },
  gitHeader: (c) => `Authorization: Bearer ${c.token}`,
}

export const VENDOR_APIS: Record<GitVendorName, GitVendorApi> = { github, gitlab, bitbucket, bitbucketServer }
