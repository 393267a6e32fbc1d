import fs from 'node:fs'
import path from 'node:path'
import { normalizeName } from '../src/formats/pypi/metadata.js'
import { run, writeFiles } from './clients.js'

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
