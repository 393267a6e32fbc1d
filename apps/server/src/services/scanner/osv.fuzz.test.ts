import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FUZZ_TEST_TIMEOUT, fuzzParams } from '../../../test/fuzz.js'
import { OsvError, parseOsvRecord } from './osv.js'

const key = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'id', 'severity', 'introduced'),
  fc.string({ maxLength: 8 }),
)
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.string({ maxLength: 12 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, json)
const event = maybe(
  fc
    .tuple(
      fc.constantFrom('introduced', 'fixed', 'last_affected', 'limit', 'other'),
      fc.oneof(fc.constantFrom('0', '1.0.0', ''), fc.string({ maxLength: 6 })),
    )
    .map(([k, v]) => ({ [k]: v })),
)
const severity = maybe(
  fc.record({
    type: fc.constantFrom('CVSS_V2', 'CVSS_V3', 'CVSS_V4', 'Ubuntu', 'x'),
    score: fc.oneof(
      fc.constantFrom(
        'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        'AV:N/AC:L/Au:N/C:P/I:P/A:P',
        'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
        'CVSS:3.1/AV:X',
        'high',
      ),
      fc.string({ maxLength: 20 }),
    ),
  }),
)
const affected = maybe(
  fc.record(
    {
      package: maybe(
        fc.record({
          ecosystem: fc.oneof(
            fc.constantFrom('npm', 'PyPI', 'Maven', 'Debian:12', 'Alpine:v3.19', 'Go', ''),
            fc.string({ maxLength: 10 }),
          ),
          name: fc.oneof(fc.constantFrom('lodash', 'org.acme:lib', 'Django_Rest'), fc.string({ maxLength: 10 })),
        }),
      ),
      severity: maybe(fc.array(severity, { maxLength: 2 })),
      ranges: maybe(
        fc.array(
          maybe(
            fc.record({
              type: fc.constantFrom('SEMVER', 'ECOSYSTEM', 'GIT', 'X'),
              events: maybe(fc.array(event, { maxLength: 3 })),
            }),
          ),
          {
            maxLength: 2,
          },
        ),
      ),
      versions: maybe(fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 })),
      ecosystem_specific: maybe(fc.record({ severity: json })),
      database_specific: maybe(fc.record({ severity: maybe(fc.constantFrom('HIGH', 'moderate', 'CRITICAL', 'x')) })),
    },
    { requiredKeys: [] },
  ),
)
const record = fc.record(
  {
    id: maybe(fc.constantFrom('GHSA-xxxx-yyyy-zzzz', 'CVE-2024-1', '')),
    modified: maybe(fc.constantFrom('2024-01-01T00:00:00Z', '')),
    published: json,
    withdrawn: json,
    aliases: maybe(fc.array(fc.string({ maxLength: 6 }), { maxLength: 2 })),
    summary: json,
    severity: maybe(fc.array(severity, { maxLength: 2 })),
    affected: maybe(fc.array(affected, { maxLength: 3 })),
    references: json,
    database_specific: maybe(fc.record({ severity: json })),
  },
  { requiredKeys: [] },
)

describe('OSV records under hostile input', () => {
  it(
    'reads any JSON into an advisory, or refuses it with an OsvError naming the record and the field',
    () => {
      fc.assert(
        fc.property(fc.oneof(json, record), (input) => {
          const parsed = JSON.parse(JSON.stringify(input) ?? 'null') as unknown
          try {
            const advisory = parseOsvRecord(parsed, 'upload.json')
            expect(typeof advisory.id).toBe('string')
            expect(advisory.id.length).toBeGreaterThan(0)
            for (const a of advisory.affected) expect(typeof a.name).toBe('string')
          } catch (error) {
            expect(error).toBeInstanceOf(OsvError)
            const osv = error as OsvError
            expect(osv.record.length).toBeGreaterThan(0)
            expect(osv.field.length).toBeGreaterThan(0)
            expect(osv.message).toContain(osv.field)
            expect(osv.message).toContain('upload.json')
          }
        }),
        fuzzParams(2000),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})
