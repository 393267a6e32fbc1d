import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { type Session, sessionHeaders } from './testApp.js'

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs a real client program; never throws on a non-zero exit (tests assert on it). */
export function run(
  cmd: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: string },
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(
      cmd,
      args,
      { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({ code, stdout: String(stdout), stderr: String(stderr) })
      },
    )
    if (options.input !== undefined) child.stdin?.end(options.input)
  })
}

/** Starts the app on a real loopback port and returns its base URL. */
export async function listen(fastify: FastifyInstance): Promise<string> {
  await fastify.listen({ port: 0, host: '127.0.0.1' })
  const address = fastify.server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return `http://127.0.0.1:${address.port}`
}

/** An access token for a user, made through the real API. */
export async function accessToken(fastify: FastifyInstance, session: Session, user = 'admin'): Promise<string> {
  const res = await fastify.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/userIdentifyToken/${user}`,
    headers: sessionHeaders(session),
    payload: { expiresIn: 3600 },
  })
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`)
  return res.json().access_token
}

/** Creates a repository through the REST API. */
export async function createRepo(
  fastify: FastifyInstance,
  session: Session,
  key: string,
  body: Record<string, unknown>,
): Promise<void> {
  const res = await fastify.inject({
    method: 'PUT',
    url: `/api/repositories/${key}`,
    headers: sessionHeaders(session),
    payload: body,
  })
  if (res.statusCode !== 201) throw new Error(`create ${key}: ${res.statusCode} ${res.body}`)
}

/** Grants a user actions on named repositories, through a permission target made by an admin. */
export async function grantRepos(
  fastify: FastifyInstance,
  admin: Session,
  name: string,
  grant: { repos: string[]; user: string; actions: string[] },
): Promise<void> {
  const res = await fastify.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/admin/permissions',
    headers: sessionHeaders(admin),
    payload: {
      name,
      repositories: {
        resources: { names: grant.repos, include: [], exclude: [] },
        grants: [{ kind: 'user', name: grant.user, actions: grant.actions }],
      },
    },
  })
  if (res.statusCode !== 201) throw new Error(`permission ${name}: ${res.statusCode} ${res.body}`)
}

export function writeFiles(dir: string, files: Record<string, string>): string {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    fs.writeFileSync(path.join(dir, name), content)
  }
  return dir
}

/** What `npm publish` sends for one version: the manifest and its tarball (package.json and index.js) inline. */
export async function npmPublishBody(
  base: string,
  repo: string,
  manifest: { name: string; version: string; [key: string]: unknown },
): Promise<{ body: Record<string, unknown>; tarball: Buffer }> {
  const { default: tar } = await import('tar-stream')
  const pack = tar.pack()
  pack.entry({ name: 'package/package.json' }, JSON.stringify(manifest))
  pack.entry({ name: 'package/index.js' }, `module.exports = '${manifest.version}'\n`)
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const c of pack) chunks.push(c as Buffer)
  const tgz = zlib.gzipSync(Buffer.concat(chunks))
  const { name, version } = manifest
  const file = `${name}-${version}.tgz`
  const body = {
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: { [version]: { ...manifest, dist: { tarball: `${base}/api/npm/${repo}/${name}/-/${file}` } } },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: tgz.toString('base64'), length: tgz.length } },
  }
  return { body, tarball: tgz }
}

/** Runs skopeo on the command line as a user would, its home and auth file in `work`; no signature policy. */
export const skopeo = (work: string, args: string[]) =>
  run('skopeo', ['--insecure-policy', ...args], {
    cwd: work,
    env: { HOME: work, REGISTRY_AUTH_FILE: path.join(work, 'auth.json') },
  })

/** skopeo copies `oci:<layout>:<tag>` to `ref` (`docker://<host>/<repo>/<image>:<tag>`) over plain HTTP with Basic `creds`. */
export const skopeoPush = (work: string, layout: string, ref: string, creds: string, tag = '1.0') =>
  skopeo(work, ['copy', '--dest-creds', creds, '--dest-tls-verify=false', `oci:${layout}:${tag}`, ref])

/** skopeo copies `ref` into the OCI layout `into` under `tag`, over plain HTTP with Basic `creds`. */
export const skopeoPull = (work: string, ref: string, into: string, creds: string, tag = '1.0') =>
  skopeo(work, ['copy', '--src-creds', creds, '--src-tls-verify=false', ref, `oci:${into}:${tag}`])
