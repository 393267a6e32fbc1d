import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FUZZ_TEST_TIMEOUT, fuzzParams, hostilePath } from '../../../test/fuzz.js'
import { zipOf } from '../../../test/zip.js'
import { HttpError } from '../../core/errors.js'
import { compareVersions, isValidId, parseVersion, readNupkg, readNuspec } from './nupkg.js'

/** Long runs of a few tokens: the shape that makes a backtracking regular expression slow. */
const repetitive = (tokens: string[]) =>
  fc
    .tuple(fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 20_000 }))
    .map(([parts, times]) => parts.join('').repeat(times).slice(0, 200_000))

/** A time budget per call: a parser that reads client text must stay linear. */
function quick<T>(f: () => T, ms = 500): T {
  const started = performance.now()
  const out = f()
  expect(performance.now() - started).toBeLessThan(ms)
  return out
}

/** Runs `f`; it may return or throw a 4xx HttpError, never anything else. */
function cleanly<T>(f: () => T): T | undefined {
  try {
    return f()
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).status).toBe(400)
    return undefined
  }
}

const versionText = fc.oneof(
  fc.string({ maxLength: 30 }),
  repetitive(['0', '1', '.', '-', 'a', '+']),
  fc
    .tuple(
      fc.array(fc.nat({ max: 3_000_000_000 }), { minLength: 1, maxLength: 5 }),
      fc.option(fc.array(fc.stringMatching(/^[0-9A-Za-z-]{0,4}$/), { minLength: 1, maxLength: 3 })),
      fc.option(fc.stringMatching(/^[0-9A-Za-z.-]{0,6}$/)),
    )
    .map(([n, label, meta]) => `${n.join('.')}${label ? `-${label.join('.')}` : ''}${meta !== null ? `+${meta}` : ''}`),
)

describe('NuGet ids, versions and nuspecs', () => {
  it(
    'normalises any version text to a canonical version, or refuses it',
    () => {
      fc.assert(
        fc.property(versionText, (text) => {
          const v = quick(() => parseVersion(text))
          if (!v) return
          expect(v.normalized).toMatch(/^\d+\.\d+\.\d+(\.[1-9]\d*)?(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/)
          expect(parseVersion(v.normalized)?.normalized).toBe(v.normalized)
          expect(compareVersions(v.full, v.normalized)).toBe(0)
        }),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'orders versions antisymmetrically',
    () => {
      fc.assert(
        fc.property(versionText, versionText, (a, b) => {
          if (!parseVersion(a) || !parseVersion(b)) return
          expect(Math.sign(compareVersions(a, b))).toBe(-Math.sign(compareVersions(b, a)) || 0)
        }),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'takes only ids without path separators',
    () => {
      fc.assert(
        fc.property(fc.oneof(hostilePath, fc.string({ maxLength: 40 }), repetitive(['a', '.', '-', '_'])), (id) => {
          if (quick(() => isValidId(id))) expect(id).not.toMatch(/[/\\]|\.\./)
        }),
        fuzzParams(1000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'reads any nuspec text quickly into a manifest with a valid id and version, or refuses it with 400',
    () => {
      const tagSoup = repetitive([
        '<package>',
        '<metadata>',
        '<id>',
        'A',
        '</id>',
        '<version>',
        '1.0',
        '<!--',
        '<![CDATA[',
        '&amp;',
        '&x;',
      ])
      const doctype = fc.string({ maxLength: 30 }).map((e) => `<!DOCTYPE package [<!ENTITY e "${e}">]><package>&e;</package>`)
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 200 }), tagSoup, doctype), (xml) => {
          const nuspec = cleanly(() => quick(() => readNuspec(xml), 2000))
          if (nuspec) {
            expect(isValidId(nuspec.id)).toBe(true)
            expect(parseVersion(nuspec.version)?.normalized).toBe(nuspec.version)
          }
        }),
        fuzzParams(300),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'refuses any bytes that are not a package with 400',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
            fc
              .array(fc.tuple(hostilePath, fc.string({ maxLength: 20 })), { maxLength: 4 })
              .map((entries) => zipOf(entries.map(([name, data]) => ({ name, data: Buffer.from(data) })))),
          ),
          async (data) => {
            try {
              await readNupkg(data, 1024 * 1024)
            } catch (error) {
              expect(error).toBeInstanceOf(HttpError)
              expect((error as HttpError).status).toBe(400)
              return
            }
            throw new Error('read as a package')
          },
        ),
        fuzzParams(300),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})
