import { describe, expect, it } from 'vitest'
import { isManifestPath, MAX_MANIFEST_BYTES, parseManifest, parseManifestDetailed } from './index.js'

const MANIFESTS = [
  'package-lock.json',
  'app/npm-shrinkwrap.json',
  'srv/app/yarn.lock',
  'requirements.txt',
  'app/requirements-dev.txt',
  'usr/lib/python3.11/site-packages/requests-2.31.0.dist-info/METADATA',
  'usr/lib/python3/dist-packages/six-1.16.0.egg-info/PKG-INFO',
  'Pipfile.lock',
  'poetry.lock',
  'go.mod',
  'src/go.sum',
  'Cargo.lock',
  'Gemfile.lock',
  'META-INF/maven/com.acme/app/pom.properties',
  'pom.xml',
]

describe('isManifestPath', () => {
  it.each(MANIFESTS)('accepts %s', (path) => {
    expect(isManifestPath(path)).toBe(true)
  })

  it.each([
    'package.json',
    'requirements.in',
    'docs/requirements.md',
    'site-packages/METADATA',
    'foo.egg-info/METADATA',
    'Cargo.toml',
    'Gemfile',
    'go.work',
    'package-lock.json.bak',
    'constructor',
    'toString',
  ])('refuses %s', (path) => {
    expect(isManifestPath(path)).toBe(false)
  })
})

/** A small deterministic generator, so a failure can be replayed. */
function* randomBuffers(seed: number, count: number): Generator<Buffer> {
  let state = seed
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state
  }
  const alphabet = Buffer.from('{}[]":,=\n\t ()<>/@#-_.\\\'abcPQV0123456789[[package]]GEM specs:require\xff')
  for (let i = 0; i < count; i++) {
    const data = Buffer.alloc(next() % 600)
    for (let j = 0; j < data.length; j++) data[j] = next() % 4 === 0 ? next() % 256 : (alphabet[next() % alphabet.length] ?? 0)
    yield data
  }
}

describe('parseManifestDetailed', () => {
  it('never throws on hostile content, whatever the format', () => {
    for (const path of MANIFESTS) {
      for (const data of randomBuffers(path.length, 200)) {
        const result = parseManifestDetailed(path, data)
        expect(Array.isArray(result.components)).toBe(true)
      }
    }
  })

  it('survives deep nesting and long lines', () => {
    const deep = Buffer.from(`{"dependencies":${'{"a":{"version":"1.0.0","dependencies":'.repeat(5000)}{}${'}}'.repeat(5000)}}`)
    expect(parseManifestDetailed('package-lock.json', deep).components.length).toBeLessThanOrEqual(1)
    const long = Buffer.from(`${'a'.repeat(1_000_000)}==`)
    expect(parseManifest('requirements.txt', long)).toEqual([])
    const comments = Buffer.from(`<project>${'<!--'.repeat(200_000)}`)
    expect(parseManifest('pom.xml', comments)).toEqual([])
  })

  it('does not read what is too large, and says so', () => {
    const big = Buffer.alloc(MAX_MANIFEST_BYTES + 1, 0x20)
    expect(parseManifestDetailed('go.sum', big)).toEqual({ components: [], error: 'larger than 50 MB; not read' })
  })

  it('says when a path is not a manifest at all', () => {
    expect(parseManifestDetailed('README.md', Buffer.from('hi'))).toEqual({ components: [], error: 'not a manifest Trove reads' })
  })

  it('reads a manifest that starts with a byte order mark', () => {
    const lock = Buffer.from('\uFEFF{"lockfileVersion":3,"packages":{"node_modules/ms":{"version":"2.1.3"}}}')
    expect(parseManifest('package-lock.json', lock)).toEqual([
      { ecosystem: 'npm', name: 'ms', version: '2.1.3', path: 'package-lock.json' },
    ])
  })
})
