import crypto from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FUZZ_TEST_TIMEOUT, fuzzParams, hostilePath } from '../../test/fuzz.js'
import { HttpError } from '../core/errors.js'
import { OciError } from './docker/errors.js'
import { configSummary, DIGEST, parseManifest } from './docker/manifest.js'
import { artifactMetadata, checksumOf, parseArtifactPath, readPom, snapshotParts } from './maven/metadata.js'
import { declaredLicenses, dependenciesOf, keywordsOf, readPublishBody } from './npm/metadata.js'
import {
  licensesOf,
  parseCoreMetadata,
  parseFilename,
  parseRequirement,
  keywordsOf as pypiKeywords,
  versionFacts,
} from './pypi/metadata.js'

/** Keys JavaScript gives a meaning to, mixed into every object a client may send. */
const trickyKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'length', ''),
  fc.string({ maxLength: 10 }),
)
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.string({ maxLength: 20 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(trickyKey, tie('value'), { maxKeys: 5 }),
  ),
})).value
/** JSON as a client sends it: parsed from text, so `__proto__` is an own key as JSON.parse makes it. */
const parsedJson = json.map((v) => JSON.parse(JSON.stringify(v)) as unknown)

/** Runs `f`; it may return or throw an HttpError of status 4xx (of the given class), never anything else. */
function cleanly<T>(f: () => T, kind: typeof HttpError = HttpError): T | undefined {
  try {
    return f()
  } catch (error) {
    expect(error).toBeInstanceOf(kind)
    expect((error as HttpError).status).toBeGreaterThanOrEqual(400)
    expect((error as HttpError).status).toBeLessThan(500)
    return undefined
  }
}

/** A time budget per call: a parser that reads client text must stay linear, not backtrack. */
function quick<T>(f: () => T, ms = 500): T {
  const started = performance.now()
  const out = f()
  expect(performance.now() - started).toBeLessThan(ms)
  return out
}

/** Long runs of a few tokens: the shape that makes a backtracking regular expression slow. */
const repetitive = (tokens: string[]) =>
  fc
    .tuple(fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 20_000 }))
    .map(([parts, times]) => parts.join('').repeat(times).slice(0, 200_000))

const tarballOf = (text: string) => Buffer.from(text)
const validPublish = (name: string, version: string, data: Buffer) => ({
  name,
  versions: {
    [version]: { name, version, dist: { integrity: `sha512-${crypto.createHash('sha512').update(data).digest('base64')}` } },
  },
  _attachments: { [`${name}-${version}.tgz`]: { data: data.toString('base64'), length: data.length } },
  'dist-tags': { latest: version },
})

describe('npm publish body', () => {
  it(
    'answers any body with a publish or a 400, never a crash',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(fc.constantFrom('pkg', '@scope/pkg', 'bad name', ''), fc.string({ maxLength: 12 })),
          fc.oneof(
            parsedJson,
            fc
              .record({ part: fc.constantFrom('versions', '_attachments', 'dist-tags', 'name'), value: parsedJson })
              .map(({ part, value }) => ({ ...validPublish('pkg', '1.0.0', tarballOf('x')), [part]: value })),
          ),
          (name, body) => {
            const read = cleanly(() => readPublishBody(name, body))
            if (read) {
              expect(typeof read.version).toBe('string')
              expect(Buffer.isBuffer(read.data)).toBe(true)
              for (const v of Object.values(read.distTags)) expect(typeof v).toBe('string')
            }
          },
        ),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'takes a well-formed publish and refuses one whose tarball does not match what it declares',
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat({ max: 199 }), (bytes, flip) => {
          const data = Buffer.from(bytes)
          const body = validPublish('pkg', '1.2.3', data)
          expect(readPublishBody('pkg', body).data.equals(data)).toBe(true)
          const tampered = Buffer.from(data)
          const at = flip % data.length
          tampered[at] = (tampered[at] ?? 0) ^ 0xff
          const forged = { ...body, _attachments: { 'pkg-1.2.3.tgz': { data: tampered.toString('base64') } } }
          expect(() => readPublishBody('pkg', forged)).toThrow(/Checksum mismatch/)
        }),
        fuzzParams(200),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'reads licences, keywords and dependencies of any manifest without throwing',
    () => {
      fc.assert(
        fc.property(
          fc.dictionary(
            fc.constantFrom('license', 'licenses', 'keywords', 'dependencies', 'devDependencies', 'peerDependencies'),
            parsedJson,
          ),
          (manifest) => {
            for (const l of declaredLicenses(manifest)) expect(typeof l).toBe('string')
            for (const k of keywordsOf(manifest)) expect(typeof k).toBe('string')
            for (const d of dependenciesOf(manifest)) expect(typeof d.range).toBe('string')
          },
        ),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})

describe('Maven paths and POMs', () => {
  it(
    'parses any path into coordinates that stay within it, or nothing',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            hostilePath,
            fc.constantFrom('org/acme/lib/1.0/lib-1.0.jar', 'a/b/c/c-1.0-SNAPSHOT/c-1.0-20240101.101010-3-sources.jar'),
          ),
          (path) => {
            const coords = quick(() => parseArtifactPath(path))
            if (coords) {
              expect(path.startsWith(coords.versionDir)).toBe(true)
              expect(coords.file.startsWith(`${coords.artifactId}-`)).toBe(true)
              quick(() => snapshotParts(coords.artifactId, coords.version, coords.file))
            }
            const checksum = quick(() => checksumOf(path))
            if (checksum) expect(path.startsWith(checksum.target)).toBe(true)
          },
        ),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'writes maven-metadata.xml that escapes whatever versions a client deployed',
    () => {
      fc.assert(
        fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 8 }), (versions) => {
          const xml = artifactMetadata('org.acme', 'lib', versions, 0)
          const inner = xml.replace(/<\/?[a-zA-Z]+>/g, '').replace(/<\?xml[^>]*\?>/, '')
          expect(inner).not.toMatch(/[<>]/)
        }),
        fuzzParams(500),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'reads any POM text quickly, without throwing',
    () => {
      const pomish = fc.oneof(
        fc.string({ maxLength: 400 }),
        fc
          .array(
            fc.oneof(
              fc.constantFrom(
                '<project>',
                '</project>',
                '<parent>',
                '<parent ',
                '</parent>',
                '<dependencies>',
                '</dependencies>',
              ),
              fc.constantFrom(
                '<dependency>',
                '</dependency>',
                '<licenses>',
                '<license>',
                '<name>',
                '</name>',
                '<!--',
                '-->',
                '&#99999999;',
              ),
              fc.string({ maxLength: 8 }),
            ),
            { maxLength: 60 },
          )
          .map((parts) => parts.join('')),
        repetitive(['<parent ', '<dependencies>', '<dependency>', '<name>', '<!--', '<licenses>', '<license>', ' ', 'x']),
      )
      fc.assert(
        fc.property(pomish, (xml) => {
          const pom = quick(() => readPom(xml))
          expect(typeof pom.packaging).toBe('string')
        }),
        fuzzParams(300),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})

describe('PyPI file names, requirements and core metadata', () => {
  it(
    'parses any file name into a name and version without a path separator, or nothing',
    () => {
      fc.assert(
        fc.property(
          fc
            .oneof(hostilePath, fc.string({ maxLength: 40 }), repetitive(['-', 'a', '.', '1']))
            .chain((stem) =>
              fc.tuple(fc.constant(stem), fc.constantFrom('.whl', '.tar.gz', '.zip', '.egg', '-py3-none-any.whl', '')),
            ),
          fc.option(fc.string({ maxLength: 10 })),
          ([stem, ext], project) => {
            const parsed = quick(() => parseFilename(`${stem}${ext}`, project ?? undefined))
            if (parsed) {
              expect(parsed.name + parsed.version).not.toMatch(/[/\\]/)
              expect(parsed.version.length).toBeGreaterThan(0)
            }
          },
        ),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'reads any requirement line quickly, without throwing',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 80 }), repetitive(['a', ' ', '(', '[', ';', 'extra == "', '=='])), (spec) => {
          const dep = quick(() => parseRequirement(spec))
          if (dep) expect(dep.name).toMatch(/^[a-z0-9][a-z0-9-]*$/)
        }),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'reads any METADATA text quickly into own fields, without throwing',
    () => {
      const header = fc
        .tuple(
          fc.oneof(
            fc.constantFrom(
              'Name',
              'Version',
              'License',
              'Classifier',
              'Requires-Dist',
              'Keywords',
              'Author-email',
              'Project-URL',
            ),
            fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'),
            fc.string({ maxLength: 8 }),
          ),
          fc.string({ maxLength: 30 }),
        )
        .map(([k, v]) => `${k}: ${v}`)
      const metadata = fc.oneof(
        fc
          .array(fc.oneof(header, fc.string({ maxLength: 20 }), fc.constant('        folded')), { maxLength: 20 })
          .map((l) => l.join('\n')),
        repetitive(['Name: x\n', ' ', '\n', ':', 'Requires-Dist: a (', 'License :: ']),
      )
      fc.assert(
        fc.property(metadata, fc.option(fc.string({ maxLength: 40 })), (text, description) => {
          const { fields } = quick(() => parseCoreMetadata(text))
          for (const [key, values] of Object.entries(fields)) {
            expect(Object.hasOwn(fields, key)).toBe(true)
            expect(Array.isArray(values)).toBe(true)
          }
          const facts = quick(() => versionFacts(fields, description ?? undefined))
          expect(Array.isArray(facts.licenses)).toBe(true)
          quick(() => licensesOf(fields))
          quick(() => pypiKeywords(fields.keywords?.[0]))
        }),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})

describe('OCI manifests and digests', () => {
  const descriptor = fc.record(
    {
      mediaType: fc.oneof(fc.constant('application/vnd.oci.image.layer.v1.tar+gzip'), fc.string({ maxLength: 10 })),
      digest: fc.oneof(
        fc.stringMatching(/^sha256:[a-f0-9]{64}$/),
        fc.constantFrom('sha512:abc', 'sha256:../../etc', `sha256:${'A'.repeat(64)}`, ''),
        fc.string({ maxLength: 20 }),
      ),
      size: fc.oneof(fc.nat(), fc.constant(-1), fc.double()),
      urls: fc.oneof(fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }), parsedJson),
    },
    { requiredKeys: [] },
  )
  const manifest = fc.oneof(
    parsedJson,
    fc.record(
      {
        schemaVersion: fc.oneof(fc.constant(2), parsedJson),
        mediaType: fc.oneof(
          fc.constantFrom('application/vnd.oci.image.manifest.v1+json', 'application/vnd.oci.image.index.v1+json'),
          parsedJson,
        ),
        config: fc.oneof(descriptor, parsedJson),
        layers: fc.oneof(fc.array(fc.oneof(descriptor, parsedJson), { maxLength: 4 }), parsedJson),
        manifests: fc.oneof(fc.array(fc.oneof(descriptor, parsedJson), { maxLength: 4 }), parsedJson),
      },
      { requiredKeys: [] },
    ),
  )
  it(
    'parses any pushed body into a manifest whose every digest is a sha256, or an OCI error',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            manifest.map((m) => Buffer.from(JSON.stringify(m) ?? 'null')),
            fc.uint8Array({ maxLength: 200 }).map(Buffer.from),
          ),
          fc.option(fc.constantFrom('application/vnd.oci.image.manifest.v1+json', 'application/json', 'text/plain; x=1', '')),
          (body, contentType) => {
            const parsed = cleanly(() => parseManifest(body, contentType ?? undefined), OciError)
            if (parsed) {
              for (const d of [...parsed.layers, ...parsed.manifests, ...parsed.blobs]) expect(d.digest).toMatch(DIGEST)
            }
          },
        ),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'summarises any image config a client pushed without throwing',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            parsedJson,
            fc.record({ history: fc.array(parsedJson, { maxLength: 4 }), os: parsedJson }, { requiredKeys: [] }),
          ),
          (config) => {
            const asObject =
              config && typeof config === 'object' && !Array.isArray(config) ? (config as Record<string, unknown>) : undefined
            const summary = configSummary(asObject, [{ mediaType: 'x', digest: `sha256:${'0'.repeat(64)}`, size: 1 }])
            expect(summary.layers).toHaveLength(1)
          },
        ),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})

describe('regressions found by fuzzing the format parsers', () => {
  it('reads a POM of unclosed comments in linear time ("<!--" repeated)', () => {
    const pom = quick(() => readPom('<!--'.repeat(50_000)))
    expect(pom.packaging).toBe('jar')
    expect(
      readPom('<project><!-- <name>no</name> --><name>yes &amp; co</name><parent><name>p</name></parent></project>').name,
    ).toBe('yes & co')
  })

  it('reads a POM whose tag with attributes never closes its bracket after a closing tag ("</parent><parent x")', () => {
    expect(quick(() => readPom('</parent><parent x')).packaging).toBe('jar')
  })

  it('refuses an sdist name whose version is empty ("--.zip")', () => {
    expect(parseFilename('--.zip')).toBeUndefined()
  })

  it('refuses a file name longer than 255 characters before searching it for the project ("1-" repeated)', () => {
    expect(quick(() => parseFilename(`${'1-'.repeat(100_000)}1.zip`, '1'))).toBeUndefined()
  })

  it('reads a METADATA header named __proto__ as a field, not as the prototype', () => {
    const { fields } = parseCoreMetadata('__proto__: x\nconstructor: y\nName: pkg')
    expect(Object.getOwnPropertyDescriptor(fields, '__proto__')?.value).toEqual(['x'])
    expect(fields.constructor).toEqual(['y'])
    expect(fields.name).toEqual(['pkg'])
  })

  it('summarises an image config whose history holds null', () => {
    const summary = configSummary({ history: [null, { created_by: 'RUN x' }] }, [
      { mediaType: 'x', digest: `sha256:${'0'.repeat(64)}`, size: 1 },
    ])
    expect(summary.layers[0]?.command).toBe('RUN x')
  })

  it('refuses a publish whose version is not a semantic version (it would name the tarball path)', () => {
    const body = validPublish('pkg', '1.0.0/../../x', Buffer.from('x'))
    expect(() => readPublishBody('pkg', body)).toThrow(/not a semantic version/)
  })

  it('refuses a publish whose version manifest is null instead of crashing', () => {
    expect(() => readPublishBody('pkg', { versions: { '1.0.0': null }, _attachments: { 'pkg-1.0.0.tgz': {} } })).toThrow(
      /names another package/,
    )
  })

  it('reads a dependency range that is an object with a toString key', () => {
    expect(dependenciesOf(JSON.parse('{"dependencies":{"a":{"toString":1}}}'))[0]?.range).toBe('{"toString":1}')
  })
})
