import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import tar from 'tar-stream'
import { normalizeName } from '../src/formats/pypi/metadata.js'
import { run, writeFiles } from './clients.js'
import { type Session, sessionHeaders, type TestApp } from './testApp.js'

/** Debian's Python: its pip, build and twine are the clients (the one on PATH may be another). */
export const PYTHON = '/usr/bin/python3'
/** Clients run offline, with no user configuration or keyring in the way. */
export const CLIENT_ENV = {
  PIP_CONFIG_FILE: '/dev/null',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  PIP_NO_INPUT: '1',
  PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring',
  PYTHONWARNINGS: 'ignore',
}

/** Builds a wheel and an sdist of a tiny project with `python3 -m build` (offline, no isolation). */
export async function buildProject(dir: string, name: string, version: string, extra = ''): Promise<string[]> {
  const module = normalizeName(name).replace(/-/g, '_')
  writeFiles(dir, {
    'pyproject.toml': `[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "${name}"
version = "${version}"
description = "A demo package for Trove"
readme = "README.md"
requires-python = ">=3.8"
license = {text = "MIT"}
keywords = ["demo", "trove"]
authors = [{name = "Ada Lovelace", email = "ada@example.com"}]
${extra}
[project.urls]
Homepage = "https://example.com/demo"
`,
    'README.md': `# ${name}\n\nThe long description of ${name}.\n`,
    [`src/${module}/__init__.py`]: `VERSION = "${version}"\n`,
  })
  const result = await run(PYTHON, ['-m', 'build', '--no-isolation', '--outdir', 'dist', '.'], { cwd: dir, env: CLIENT_ENV })
  if (result.code !== 0) throw new Error(`build failed: ${result.stderr}`)
  return fs.readdirSync(path.join(dir, 'dist')).map((f) => path.join(dir, 'dist', f))
}

/** A multipart form as twine sends it (fields, then the `content` file). */
export function uploadForm(fields: Record<string, string | string[]>, filename: string, content: Buffer) {
  const boundary = `----trove${crypto.randomBytes(8).toString('hex')}`
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`))
    }
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  )
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Uploads an sdist of project `x` at `version` into `repo` as twine's form, signed in as `session`; answers the response. */
export async function uploadSdist(t: TestApp, session: Session, repo: string, version: string) {
  const sdist = await tarGz([{ name: `x-${version}/PKG-INFO`, content: `Metadata-Version: 2.1\nName: x\nVersion: ${version}\n` }])
  const form = uploadForm({ ':action': 'file_upload', name: 'x', version }, `x-${version}.tar.gz`, sdist)
  return t.fastify.inject({
    method: 'POST',
    url: `/api/pypi/${repo}/`,
    headers: { ...sessionHeaders(session), 'content-type': form.contentType },
    payload: form.payload,
  })
}

export async function tarGz(entries: { name: string; content?: string; type?: 'file' | 'symlink'; linkname?: string }[]) {
  const pack = tar.pack()
  for (const e of entries) {
    if (e.type === 'symlink') pack.entry({ name: e.name, type: 'symlink', linkname: e.linkname })
    else pack.entry({ name: e.name }, e.content ?? '')
  }
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const c of pack) chunks.push(c as Buffer)
  return zlib.gzipSync(Buffer.concat(chunks))
}
