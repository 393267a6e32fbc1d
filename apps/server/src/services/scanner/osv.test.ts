import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fixedVersions, isAffected } from './ecosystems.js'
import { OsvError, parseOsvRecord } from './osv.js'
import type { Advisory, AffectedPackage } from './types.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const fixture = (name: string): Advisory => parseOsvRecord(JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')), name)

/** Whether any of the advisory's entries for this package holds the version, as the scanner will ask. */
const affects = (advisory: Advisory, name: string, version: string) =>
  advisory.affected.some((entry) => entry.name === name && isAffected(entry, version))
const fixes = (advisory: Advisory, name: string, version: string) =>
  advisory.affected.filter((entry) => entry.name === name).flatMap((entry) => fixedVersions(entry, version))

const minimal = (extra: Record<string, unknown> = {}) => ({
  id: 'GHSA-test-test-test',
  modified: '2024-01-01T00:00:00Z',
  affected: [
    {
      package: { ecosystem: 'npm', name: 'demo' },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.0.0' }] }],
    },
  ],
  ...extra,
})

function failure(json: unknown, where = 'test.json'): OsvError {
  try {
    parseOsvRecord(json, where)
  } catch (error) {
    expect(error).toBeInstanceOf(OsvError)
    return error as OsvError
  }
  throw new Error('expected the record to be refused')
}

describe('parseOsvRecord on real advisories', () => {
  it('reads lodash’s command injection (npm)', () => {
    const advisory = fixture('GHSA-35jh-r3h4-6jhm.json')
    expect(advisory).toMatchObject({
      id: 'GHSA-35jh-r3h4-6jhm',
      aliases: ['CVE-2021-23337'],
      summary: 'Command Injection in lodash',
      published: '2021-05-06T16:05:51Z',
      withdrawn: null,
      severity: 'high',
      cvssScore: 7.2,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H',
    })
    expect(advisory.affected.map((a) => [a.ecosystem, a.release, a.name])).toEqual([
      ['npm', '', 'lodash'],
      ['npm', '', 'lodash-es'],
    ])
    expect(affects(advisory, 'lodash', '4.17.20')).toBe(true)
    expect(affects(advisory, 'lodash', '4.17.21')).toBe(false)
    expect(affects(advisory, 'lodash-es', '4.17.15')).toBe(true)
    expect(fixes(advisory, 'lodash', '4.17.20')).toEqual(['4.17.21'])
    expect(advisory.references[0]).toEqual({ type: 'ADVISORY', url: 'https://nvd.nist.gov/vuln/detail/CVE-2021-23337' })
  })

  it('reads minimist’s two fixed lines (npm)', () => {
    const advisory = fixture('GHSA-xvch-5gv4-984h.json')
    expect(advisory.severity).toBe('critical')
    expect(advisory.cvssScore).toBe(9.8)
    expect(['0.0.8', '0.2.3', '0.2.4', '1.0.0', '1.2.5', '1.2.6'].filter((v) => affects(advisory, 'minimist', v))).toEqual([
      '0.0.8',
      '0.2.3',
      '1.0.0',
      '1.2.5',
    ])
    expect(fixes(advisory, 'minimist', '0.2.3')).toEqual(['0.2.4'])
    expect(fixes(advisory, 'minimist', '1.2.5')).toEqual(['1.2.6'])
  })

  it('reads requests’ header leak (PyPI)', () => {
    const advisory = fixture('GHSA-j8r2-6x86-q33q.json')
    expect(advisory).toMatchObject({ severity: 'medium', cvssScore: 6.1 })
    expect(['2.2.1', '2.3.0', '2.28.1', '2.31.0', '2.32.0'].filter((v) => affects(advisory, 'requests', v))).toEqual([
      '2.3.0',
      '2.28.1',
    ])
    expect(fixes(advisory, 'requests', '2.28.1')).toEqual(['2.31.0'])
  })

  it('reads Log4Shell’s three ranges (Maven)', () => {
    const advisory = fixture('GHSA-jfh8-c2jp-5v3q.json')
    expect(advisory).toMatchObject({ aliases: ['CVE-2021-44228'], severity: 'critical', cvssScore: 10 })
    const name = 'org.apache.logging.log4j:log4j-core'
    const versions = ['2.0-beta9', '2.3', '2.3.1', '2.4', '2.12.1', '2.12.2', '2.13.0', '2.14.1', '2.15.0', '2.16.0', '2.17.1']
    expect(versions.filter((v) => affects(advisory, name, v))).toEqual(['2.0-beta9', '2.3', '2.4', '2.12.1', '2.13.0', '2.14.1'])
    expect(fixes(advisory, name, '2.14.1')).toEqual(['2.15.0'])
    expect(fixes(advisory, name, '2.12.1')).toEqual(['2.12.2'])
    expect(fixes(advisory, name, '2.3')).toEqual(['2.3.1'])
  })

  it('reads smallvec’s buffer overflow (crates.io, one SEMVER range with two intervals)', () => {
    const advisory = fixture('RUSTSEC-2021-0003.json')
    expect(advisory).toMatchObject({ aliases: ['CVE-2021-25900', 'GHSA-43w2-9j62-hq99'], severity: 'critical', cvssScore: 9.8 })
    expect(
      ['0.6.2', '0.6.3', '0.6.13', '0.6.14', '1.0.0', '1.6.0', '1.6.1'].filter((v) => affects(advisory, 'smallvec', v)),
    ).toEqual(['0.6.3', '0.6.13', '1.0.0', '1.6.0'])
    expect(fixes(advisory, 'smallvec', '1.4.2')).toEqual(['1.6.1'])
  })

  it('reads golang.org/x/text’s decoder loop (Go), which carries no severity', () => {
    const advisory = fixture('GO-2020-0015.json')
    expect(advisory).toMatchObject({ summary: '', severity: 'unknown', cvssScore: null, cvssVector: null })
    expect(affects(advisory, 'golang.org/x/text', 'v0.3.2')).toBe(true)
    expect(affects(advisory, 'golang.org/x/text', 'v0.0.0-20190101000000-abcdefabcdef')).toBe(true)
    expect(affects(advisory, 'golang.org/x/text', 'v0.3.3')).toBe(false)
  })

  it('reads nokogiri’s regular-expression advisory (RubyGems)', () => {
    const advisory = fixture('GHSA-crjr-9rc5-ghw8.json')
    expect(advisory).toMatchObject({ severity: 'high', cvssScore: 7.5 })
    expect(['1.12.5', '1.13.3', '1.13.4', '1.13.10'].filter((v) => affects(advisory, 'nokogiri', v))).toEqual([
      '1.12.5',
      '1.13.3',
    ])
  })

  it('reads a Debian security advisory for bookworm', () => {
    const advisory = fixture('DSA-5532-1.json')
    expect(advisory).toMatchObject({ id: 'DSA-5532-1', upstream: ['CVE-2023-5363'], severity: 'unknown' })
    expect(advisory.affected).toEqual([
      {
        ecosystem: 'Debian',
        release: '12',
        name: 'openssl',
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.0.11-1~deb12u2' }] }],
        versions: [],
      },
    ] satisfies AffectedPackage[])
    expect(affects(advisory, 'openssl', '3.0.11-1~deb12u1')).toBe(true)
    expect(affects(advisory, 'openssl', '3.0.11-1~deb12u2')).toBe(false)
    expect(affects(advisory, 'openssl', '3.0.13-1~deb12u1')).toBe(false)
  })

  it('reads an Alpine record for v3.18', () => {
    const advisory = fixture('ALPINE-CVE-2023-3446.json')
    expect(advisory).toMatchObject({ upstream: ['CVE-2023-3446'], aliases: [] })
    expect(advisory.affected[0]).toMatchObject({ ecosystem: 'Alpine', release: 'v3.18', name: 'openssl' })
    expect(affects(advisory, 'openssl', '3.1.1-r2')).toBe(true)
    expect(affects(advisory, 'openssl', '3.1.1-r3')).toBe(false)
    expect(fixes(advisory, 'openssl', '3.1.0-r4')).toEqual(['3.1.1-r3'])
  })
})

describe('parseOsvRecord refusals', () => {
  it('names the record, where it came from and the event at fault', () => {
    const error = failure(
      minimal({
        id: 'GHSA-xxxx',
        affected: [
          {
            package: { ecosystem: 'npm', name: 'lodash' },
            ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1', limit: '2' }] }],
          },
        ],
      }),
      'lodash.json',
    )
    expect(error.message).toBe(
      'GHSA-xxxx (lodash.json): affected[0].ranges[0].events[1]: expected exactly one of introduced, fixed, last_affected, limit',
    )
    expect(error.record).toBe('GHSA-xxxx')
    expect(error.field).toBe('affected[0].ranges[0].events[1]')
  })

  it('refuses events that are empty or carry something else', () => {
    const events = (...list: unknown[]) =>
      minimal({ affected: [{ package: { ecosystem: 'npm', name: 'demo' }, ranges: [{ type: 'ECOSYSTEM', events: list }] }] })
    expect(failure(events({})).field).toBe('affected[0].ranges[0].events[0]')
    expect(failure(events({ introduced: '0' }, { patched: '1.0' })).field).toBe('affected[0].ranges[0].events[1]')
    expect(failure(events({ introduced: 0 })).field).toBe('affected[0].ranges[0].events[0].introduced')
    expect(failure(events()).field).toBe('affected[0].ranges[0].events')
  })

  it('names missing or mistyped fields', () => {
    const missing = failure({ id: 'GHSA-a', affected: [] }, 'a.json')
    expect(missing).toMatchObject({ record: 'GHSA-a', field: 'modified' })
    expect(missing.message).toMatch(/^GHSA-a \(a\.json\): modified: /)
    expect(failure(minimal({ aliases: 'CVE-1' })).field).toBe('aliases')
    expect(
      failure(minimal({ affected: [{ package: { ecosystem: 'npm', name: 'x' }, ranges: [{ type: 'WHATEVER', events: [] }] }] }))
        .field,
    ).toBe('affected[0].ranges[0].type')
    const noId = failure({ modified: '2024-01-01T00:00:00Z' }, 'archive.zip:x.json')
    expect(noId).toMatchObject({ record: 'archive.zip:x.json', field: 'id' })
    expect(noId.message).toMatch(/^archive\.zip:x\.json: id: /)
    expect(failure(42, 'x.json').message).toMatch(/^x\.json: record: /)
    expect(failure(null, 'x.json').field).toBe('record')
  })

  it('refuses a CVSS vector the calculator cannot score, naming it', () => {
    const bad = failure(minimal({ severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:Q/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }] }))
    expect(bad.field).toBe('severity[0].score')
    expect(bad.message).toContain('GHSA-test-test-test (test.json): severity[0].score: CVSS_V3 "CVSS:3.1/AV:Q')
    expect(failure(minimal({ severity: [{ type: 'CVSS_V3', score: 'garbage' }] })).field).toBe('severity[0].score')
    expect(failure(minimal({ severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L' }] })).message).toContain(
      'lacks the base metrics',
    )
    expect(
      failure(minimal({ severity: [{ type: 'CVSS_V4', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }] })).field,
    ).toBe('severity[0].score')
    const perPackage = failure(
      minimal({ affected: [{ package: { ecosystem: 'npm', name: 'x' }, severity: [{ type: 'CVSS_V2', score: 'AV:N/AC:L' }] }] }),
    )
    expect(perPackage.field).toBe('affected[0].severity[0].score')
  })
})

describe('parseOsvRecord details', () => {
  it('drops affected entries of ecosystems Trove does not scan, and normalises PyPI and NuGet names', () => {
    const advisory = parseOsvRecord(
      minimal({
        affected: [
          { package: { ecosystem: 'Hex', name: 'plug' }, ranges: [] },
          { package: { ecosystem: 'NuGet', name: 'Newtonsoft.Json' }, versions: ['12.0.1'] },
          { package: { ecosystem: 'Ubuntu:22.04:LTS', name: 'openssl' } },
          { ranges: [{ type: 'GIT', repo: 'https://example.org/x.git', events: [{ introduced: '0' }] }] },
          { package: { ecosystem: 'PyPI', name: 'Django_REST.framework' }, versions: ['3.0.0'] },
        ],
      }),
      'x.json',
    )
    expect(advisory.affected).toEqual([
      { ecosystem: 'NuGet', release: '', name: 'newtonsoft.json', ranges: [], versions: ['12.0.1'] },
      { ecosystem: 'PyPI', release: '', name: 'django-rest-framework', ranges: [], versions: ['3.0.0'] },
    ])
  })

  it('scores every CVSS version and keeps the highest', () => {
    const advisory = parseOsvRecord(
      minimal({
        severity: [
          { type: 'CVSS_V2', score: 'AV:N/AC:L/Au:N/C:P/I:P/A:P' },
          { type: 'CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N' },
          { type: 'CVSS_V3', score: 'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N' },
          { type: 'Ubuntu', score: 'medium' },
        ],
      }),
      'x.json',
    )
    expect(advisory).toMatchObject({
      severity: 'critical',
      cvssScore: 9.3,
      cvssVector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
    })
    const v2 = parseOsvRecord(minimal({ severity: [{ type: 'CVSS_V2', score: 'AV:N/AC:L/Au:N/C:P/I:P/A:P' }] }), 'x.json')
    expect(v2).toMatchObject({ severity: 'high', cvssScore: 7.5 })
    const perPackage = parseOsvRecord(
      minimal({
        affected: [
          {
            package: { ecosystem: 'npm', name: 'x' },
            severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N' }],
          },
        ],
      }),
      'x.json',
    )
    expect(perPackage).toMatchObject({ severity: 'medium', cvssScore: 5.3 })
  })

  it('falls back on the database’s own label, then on unknown', () => {
    expect(parseOsvRecord(minimal({ database_specific: { severity: 'MODERATE' } }), 'x.json').severity).toBe('medium')
    expect(parseOsvRecord(minimal({ database_specific: { severity: 'low' } }), 'x.json').severity).toBe('low')
    const perPackage = minimal({
      affected: [
        { package: { ecosystem: 'npm', name: 'a' }, ecosystem_specific: { severity: 'LOW' } },
        { package: { ecosystem: 'npm', name: 'b' }, database_specific: { severity: 'CRITICAL' } },
      ],
    })
    expect(parseOsvRecord(perPackage, 'x.json').severity).toBe('critical')
    expect(parseOsvRecord(minimal({ database_specific: { severity: 'bogus' } }), 'x.json').severity).toBe('unknown')
    expect(parseOsvRecord(minimal(), 'x.json')).toMatchObject({ severity: 'unknown', cvssScore: null, cvssVector: null })
    // A vector outranks the label, whichever is higher.
    const both = minimal({
      severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N' }],
      database_specific: { severity: 'CRITICAL' },
    })
    expect(parseOsvRecord(both, 'x.json').severity).toBe('medium')
  })

  it('keeps withdrawn, related and missing optional fields', () => {
    const advisory = parseOsvRecord(
      minimal({ withdrawn: '2024-02-01T00:00:00Z', related: ['CVE-2024-1'], summary: null, details: null, references: null }),
      'x.json',
    )
    expect(advisory).toMatchObject({
      withdrawn: '2024-02-01T00:00:00Z',
      related: ['CVE-2024-1'],
      summary: '',
      details: '',
      references: [],
      published: null,
      aliases: [],
    })
  })
})
