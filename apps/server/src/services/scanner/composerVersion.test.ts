import { describe, expect, it } from 'vitest'
import { type ComposerVersion, compareComposer, normalizeComposer, parseComposer } from './composerVersion.js'
import { isAffected } from './ecosystems.js'

const parsed = (v: string): ComposerVersion => {
  const p = parseComposer(v)
  if (!p) throw new Error(`${v} did not parse`)
  return p
}
const compare = (a: string, b: string) => Math.sign(compareComposer(parsed(a), parsed(b))) || 0

describe('Composer version normalisation', () => {
  // Cases from composer/semver's VersionParserTest (successfulNormalizedVersions).
  const cases: [string, string][] = [
    ['1.0.0', '1.0.0.0'],
    ['1.2.3.4', '1.2.3.4'],
    ['1.0.0RC1dev', '1.0.0.0-RC1-dev'],
    ['1.0.0-rC15-dev', '1.0.0.0-RC15-dev'],
    ['1.0.0.RC.15-dev', '1.0.0.0-RC15-dev'],
    ['1.0.0-rc1', '1.0.0.0-RC1'],
    ['1.0.0.pl3-dev', '1.0.0.0-patch3-dev'],
    ['1.0-dev', '1.0.0.0-dev'],
    ['0', '0.0.0.0'],
    ['10.4.13-beta', '10.4.13.0-beta'],
    ['10.4.13beta2', '10.4.13.0-beta2'],
    ['10.4.13beta.2', '10.4.13.0-beta2'],
    ['v1.13.11-beta.0', '1.13.11.0-beta0'],
    ['1.13.11.0-beta0', '1.13.11.0-beta0'],
    ['10.4.13-b', '10.4.13.0-beta'],
    ['10.4.13-b5', '10.4.13.0-beta5'],
    ['v1.0.0', '1.0.0.0'],
    ['2010.01', '2010.01.0.0'],
    ['2010.01.02', '2010.01.02.0'],
    ['2010.1.555', '2010.1.555.0'],
    ['v20100102', '20100102'],
    ['2010-01-02', '2010.01.02'],
    ['2010-01-02.5', '2010.01.02.5'],
    ['20100102-203040', '20100102.203040'],
    ['20100102203040-10', '20100102203040.10'],
    ['20100102-203040-p1', '20100102.203040-patch1'],
    ['201903.0', '201903.0'],
    ['201903.0-p2', '201903.0-patch2'],
    ['dev-master', 'dev-master'],
    ['master', 'dev-master'],
    ['dev-trunk', 'dev-trunk'],
    ['1.x-dev', '1.9999999.9999999.9999999-dev'],
    ['dev-feature-foo', 'dev-feature-foo'],
    ['DEV-FOOBAR', 'dev-FOOBAR'],
    ['dev-master as 1.0.0', 'dev-master'],
    ['1.0.0+foo', '1.0.0.0'],
    ['1.0.0-beta.5+foo', '1.0.0.0-beta5'],
    ['1.0.0+foo as 2.0', '1.0.0.0'],
    ['00.01.03.04', '00.01.03.04'],
    ['0700', '0700.0.0.0'],
    ['041.x-dev', '041.9999999.9999999.9999999-dev'],
    [' 1.0.0', '1.0.0.0'],
    ['1.0.0 ', '1.0.0.0'],
    ['1.0.0-stable', '1.0.0.0'],
    ['1.0.0@dev', '1.0.0.0'],
  ]
  it.each(cases)('normalises %s to %s', (input, expected) => {
    expect(normalizeComposer(input)).toBe(expected)
  })

  // composer/semver's failingNormalizedVersions.
  it.each(['', 'a', '1.0.0-meh', '1.0.0.0.0', 'feature-foo', '1.0.0+foo bar', 'x'.repeat(300)])('refuses %j', (input) => {
    expect(normalizeComposer(input)).toBeNull()
  })

  it('takes no branch as a version to order', () => {
    expect(parseComposer('dev-main')).toBeNull()
    expect(parseComposer('master')).toBeNull()
    expect(parseComposer('2.x-dev')).not.toBeNull()
  })

  it('reads a long run of digits and separators in linear time', () => {
    const started = performance.now()
    expect(normalizeComposer(`1.0.0-beta${'1.'.repeat(120)}x`)).toBeNull()
    expect(performance.now() - started).toBeLessThan(200)
  })
})

describe('Composer version order (PHP version_compare over normalised versions)', () => {
  const pairs = `
    1.0.0 = v1.0.0
    1.0 = 1.0.0.0
    1.0.0 < 1.0.1
    1.0.9 < 1.0.10
    1.2.3 < 1.2.3.1
    1.0.0-dev < 1.0.0-alpha1
    1.0.0-alpha1 < 1.0.0-alpha2
    1.0.0-alpha2 < 1.0.0-beta1
    1.0.0-a2 = 1.0.0-alpha2
    1.0.0-b1 = 1.0.0-beta1
    1.0.0-beta < 1.0.0-beta1
    1.0.0-beta1-dev < 1.0.0-beta1
    1.0.0-beta9 < 1.0.0-beta10
    1.0.0-beta2 < 1.0.0-RC1
    1.0.0-rc1 = 1.0.0-RC1
    1.0.0-RC1 < 1.0.0
    1.0.0-RC10 > 1.0.0-RC9
    1.0.0 < 1.0.0-patch1
    1.0.0-pl1 = 1.0.0-patch1
    1.0.0-p1 < 1.0.0-p2
    1.0.0-patch1 < 1.0.1-dev
    1.0.0 > 1.0.0-dev
    2.0.0-beta.3 > 2.0.0-beta.2
    1.x-dev > 1.99.99
    1.x-dev < 2.0.0
    20100102 < 20100103
    v5.4.46 < 5.4.47
  `
  const rows = pairs
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/) as [string, string, string])
  it.each(rows)('%s %s %s', (a, op, b) => {
    const expected = op === '<' ? -1 : op === '>' ? 1 : 0
    expect(compare(a, b)).toBe(expected)
    expect(compare(b, a)).toBe(-expected || 0)
  })

  it('evaluates an OSV Packagist range in that order', () => {
    const affected = {
      ecosystem: 'Packagist' as const,
      release: '',
      name: 'guzzlehttp/guzzle',
      ranges: [{ type: 'ECOSYSTEM' as const, events: [{ introduced: '7.0.0' }, { fixed: '7.4.5' }] }],
      versions: [],
    }
    expect(isAffected(affected, '7.4.4')).toBe(true)
    expect(isAffected(affected, 'v7.4.4')).toBe(true)
    expect(isAffected(affected, '7.4.5-RC1')).toBe(true)
    expect(isAffected(affected, '7.4.5')).toBe(false)
    expect(isAffected(affected, '7.4.5-patch1')).toBe(false)
    expect(isAffected(affected, '7.0.0-beta1')).toBe(false)
    expect(isAffected(affected, '6.5.8')).toBe(false)
    expect(isAffected(affected, 'dev-master')).toBe(false)
  })
})
