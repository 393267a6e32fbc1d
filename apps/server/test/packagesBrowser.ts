import { PACKAGE_FIELDS, PACKAGE_LICENSE_FIELDS, VERSIONS_WITH_FILES_QUERY } from '@trove/contracts/packages'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { expect, vi } from 'vitest'
import { allKept } from '../src/formats/kit/keepLater.js'
import { type Session, sessionHeaders } from './testApp.js'

export interface BrowsedPackage {
  name: string
  packageType: string
  description: string | null
  latestVersion: string | null
  stats: { downloads: number }
  licenses: { name: string; source: string }[] | null
}

export interface BrowsedVersion {
  name: string
  size: number
  repos: { name: string; type: string; leadFilePath: string | null }[]
  files: { name: string; path: string; lead: boolean; size: number; sha256: string; mimeType: string }[]
}

/**
 * The packages browser's calls, asked as the console asks them, for the format tests that check a
 * package shows with its readme, licences, dependencies and downloads.
 */
export function packagesBrowser(fastify: FastifyInstance, session: Session) {
  const headers = sessionHeaders(session)
  // What remotes fetched is kept after their answer (formats/kit/keepLater.ts): the console sees it once kept.
  const ask = async (options: InjectOptions) => {
    await allKept()
    return fastify.inject(options)
  }
  const get = async (url: string) => {
    const res = await ask({ url, headers })
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200)
    return res.json()
  }
  const pkg = async (pkgid: string): Promise<BrowsedPackage> => {
    const res = await ask({
      method: 'POST',
      url: '/ui/api/v1/mds/package',
      headers,
      payload: {
        graphQL: {
          query: `query Package($pkgid: ID!) { package(pkgid: $pkgid) { ${PACKAGE_FIELDS} ${PACKAGE_LICENSE_FIELDS} } }`,
          variables: { pkgid },
        },
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.package
  }
  return {
    /** Licences are given only under a security licence: install one, as an admin does. */
    async installSecurityLicense() {
      const res = await ask({
        method: 'PUT',
        url: '/ui/api/v1/ui/admin/license',
        headers,
        payload: { type: 'ENTERPRISE', licensedTo: 'Trove tests', validThrough: null },
      })
      expect(res.statusCode, res.body).toBe(200)
    },
    package: pkg,
    /** Waits for a package's download count: counts reach the database within a second, the browser's answers are cached a few seconds more. */
    async downloads(pkgid: string, count: number) {
      await vi.waitFor(async () => expect((await pkg(pkgid)).stats.downloads).toBe(count), { timeout: 15_000, interval: 250 })
    },
    /** One version of a package, with its files, as the versions list asks for a docker package's. */
    async version(pkgid: string, name: string): Promise<BrowsedVersion> {
      const res = await ask({
        method: 'POST',
        url: '/ui/api/v1/mds/versions',
        headers,
        payload: { graphQL: { query: VERSIONS_WITH_FILES_QUERY, variables: { filter: { packageId: pkgid, name } } } },
      })
      expect(res.statusCode, res.body).toBe(200)
      const edges = res.json().data.versions.edges as { node: BrowsedVersion }[]
      expect(edges.map((e) => e.node.name)).toEqual([name])
      return (edges[0] as { node: BrowsedVersion }).node
    },
    /** A version's dependencies, by version id (`<type>://<name>:<version>`) as the Dependencies section asks. */
    async dependencies(versionId: string): Promise<{ name: string; range: string; scope: string }[]> {
      return (await get(`/ui/api/v1/ui/v1/native/versions/npm/dependencies?id=${encodeURIComponent(versionId)}`)).dependencies
    },
    /** A version's readme, by version id as the Readme tab asks, or by the path `<repo>/<file>` of one of its files. */
    async readme(ref: { id: string } | { path: string }): Promise<string | null> {
      const [key, value] = 'id' in ref ? ['id', ref.id] : ['path', ref.path]
      return (await get(`/ui/api/v1/ui/v1/native/versions/readme?${key}=${encodeURIComponent(value)}`)).readme
    },
  }
}
