import { describe, expect, it } from 'vitest'
import { fixedVersions, isAffected } from './ecosystems.js'
import type { AffectedPackage, AffectedRange, Ecosystem } from './types.js'

const pkg = (ecosystem: Ecosystem, ranges: AffectedRange[], versions: string[] = []): AffectedPackage => ({
  ecosystem,
  release: '',
  name: 'demo',
  ranges,
  versions,
})
const ecosystemRange = (...events: AffectedRange['events']): AffectedRange => ({ type: 'ECOSYSTEM', events })
const semverRange = (...events: AffectedRange['events']): AffectedRange => ({ type: 'SEMVER', events })

const affectedOf = (p: AffectedPackage, versions: string[]) => versions.filter((v) => isAffected(p, v))

describe('isAffected (the OSV evaluation rules)', () => {
  it('treats introduced "0" as the start and fixed as an exclusive end', () => {
    const p = pkg('npm', [ecosystemRange({ introduced: '0' }, { fixed: '4.17.21' })])
    expect(affectedOf(p, ['0.0.1', '1.0.0', '4.17.20', '4.17.21-rc.1', '4.17.21', '4.17.22', '5.0.0'])).toEqual([
      '0.0.1',
      '1.0.0',
      '4.17.20',
      '4.17.21-rc.1',
    ])
  })

  it('treats introduced as inclusive and last_affected as an inclusive end', () => {
    const p = pkg('npm', [ecosystemRange({ introduced: '1.2.0' }, { last_affected: '1.4.0' })])
    expect(affectedOf(p, ['1.1.9', '1.2.0', '1.3.5', '1.4.0', '1.4.1'])).toEqual(['1.2.0', '1.3.5', '1.4.0'])
  })

  it('leaves a range without an end open', () => {
    const p = pkg('npm', [ecosystemRange({ introduced: '2.0.0' })])
    expect(affectedOf(p, ['1.9.9', '2.0.0', '99.0.0'])).toEqual(['2.0.0', '99.0.0'])
  })

  it('walks several intervals in one range, in version order whatever order they are written in', () => {
    const p = pkg('crates.io', [
      semverRange({ fixed: '1.6.1' }, { introduced: '0.6.3' }, { introduced: '1.0.0' }, { fixed: '0.6.14' }),
    ])
    expect(affectedOf(p, ['0.6.2', '0.6.3', '0.6.13', '0.6.14', '0.9.0', '1.0.0', '1.6.0', '1.6.1', '2.0.0'])).toEqual([
      '0.6.3',
      '0.6.13',
      '1.0.0',
      '1.6.0',
    ])
  })

  it('keeps a version affected where one interval ends and the next begins', () => {
    const p = pkg('npm', [
      ecosystemRange({ introduced: '1.0.0' }, { fixed: '1.5.0' }, { introduced: '1.5.0' }, { fixed: '2.0.0' }),
    ])
    expect(affectedOf(p, ['1.4.0', '1.5.0', '1.9.0', '2.0.0'])).toEqual(['1.4.0', '1.5.0', '1.9.0'])
  })

  it('bounds a range by its limits (exclusive), "*" meaning none', () => {
    const limited = pkg('npm', [ecosystemRange({ introduced: '0' }, { limit: '1.5.0' })])
    expect(affectedOf(limited, ['1.0.0', '1.4.9', '1.5.0', '2.0.0'])).toEqual(['1.0.0', '1.4.9'])
    const two = pkg('npm', [ecosystemRange({ introduced: '0' }, { limit: '1.0.0' }, { limit: '3.0.0' })])
    expect(affectedOf(two, ['0.5.0', '2.0.0', '3.0.0'])).toEqual(['0.5.0', '2.0.0'])
    const star = pkg('npm', [ecosystemRange({ introduced: '0' }, { limit: '1.0.0' }, { limit: '*' })])
    expect(affectedOf(star, ['0.5.0', '2.0.0'])).toEqual(['0.5.0', '2.0.0'])
  })

  it('matches versions listed explicitly, exactly as written, even ones no range can read', () => {
    const p = pkg('npm', [], ['1.0.0', 'weird-build'])
    expect(affectedOf(p, ['1.0.0', '1.0.1', 'weird-build', '1.0'])).toEqual(['1.0.0', 'weird-build'])
  })

  it('never matches GIT ranges', () => {
    const p = pkg('npm', [{ type: 'GIT', events: [{ introduced: '0' }, { fixed: 'a'.repeat(40) }] }])
    expect(isAffected(p, '1.0.0')).toBe(false)
  })

  it('puts a version its ecosystem cannot read outside every range', () => {
    const p = pkg('npm', [ecosystemRange({ introduced: '0' })])
    expect(isAffected(p, 'not a version')).toBe(false)
    expect(isAffected(p, '')).toBe(false)
  })

  it('ignores an unreadable event, erring towards reporting', () => {
    const p = pkg('npm', [ecosystemRange({ introduced: '0' }, { fixed: 'garbage' })])
    expect(isAffected(p, '9.9.9')).toBe(true)
  })

  it('uses each ecosystem’s own order for ECOSYSTEM ranges, and semver for SEMVER ranges', () => {
    const maven = pkg('Maven', [ecosystemRange({ introduced: '2.13.0' }, { fixed: '2.15.0' })])
    expect(affectedOf(maven, ['2.12.4', '2.13.0', '2.14.1', '2.15.0-rc1', '2.15.0', '2.15.0.RELEASE'])).toEqual([
      '2.13.0',
      '2.14.1',
      '2.15.0-rc1',
    ])
    const go = pkg('Go', [semverRange({ introduced: '0' }, { fixed: '0.3.3' })])
    expect(affectedOf(go, ['v0.3.2', 'v0.3.3', 'v0.0.0-20200101000000-abcdefabcdef', 'v0.3.8'])).toEqual([
      'v0.3.2',
      'v0.0.0-20200101000000-abcdefabcdef',
    ])
    const debian = pkg('Debian', [ecosystemRange({ introduced: '0' }, { fixed: '3.0.11-1~deb12u2' })])
    expect(affectedOf(debian, ['3.0.9-1', '3.0.11-1~deb12u1', '3.0.11-1~deb12u2', '3.0.13-1~deb12u1'])).toEqual([
      '3.0.9-1',
      '3.0.11-1~deb12u1',
    ])
    const alpine = pkg('Alpine', [ecosystemRange({ introduced: '0' }, { fixed: '3.1.1-r3' })])
    expect(affectedOf(alpine, ['3.1.1-r2', '3.1.1-r3', '3.1.2-r0', '3.0.8-r4'])).toEqual(['3.1.1-r2', '3.0.8-r4'])
    const pypi = pkg('PyPI', [ecosystemRange({ introduced: '2.3.0' }, { fixed: '2.31.0' })])
    expect(affectedOf(pypi, ['2.2.1', '2.3', '2.30.0', '2.31.0rc1', '2.31.0', '2.31.0.post1'])).toEqual([
      '2.3',
      '2.30.0',
      '2.31.0rc1',
    ])
    const gems = pkg('RubyGems', [ecosystemRange({ introduced: '0' }, { fixed: '1.13.4' })])
    expect(affectedOf(gems, ['1.12.5', '1.13.4.rc1', '1.13.4', '1.13.10'])).toEqual(['1.12.5', '1.13.4.rc1'])
  })

  it('evaluates hundreds of thousands of pairs quickly', () => {
    const packages = Array.from({ length: 1000 }, (_, i) =>
      pkg('npm', [ecosystemRange({ introduced: `${i % 7}.0.0` }, { fixed: `${i % 7}.${i % 13}.${i % 5}` })]),
    )
    const versions = Array.from({ length: 300 }, (_, i) => `${i % 9}.${i % 17}.${i % 11}`)
    const started = performance.now()
    let hits = 0
    for (const p of packages) for (const v of versions) if (isAffected(p, v)) hits++
    const elapsed = performance.now() - started
    expect(hits).toBeGreaterThan(0)
    // 300,000 evaluations; a generous bound that still catches per-call parsing or sorting.
    expect(elapsed).toBeLessThan(3000)
  })
})

describe('fixedVersions', () => {
  it('names the fix that ends the interval holding the version', () => {
    const p = pkg('crates.io', [
      semverRange({ introduced: '0.6.3' }, { fixed: '0.6.14' }, { introduced: '1.0.0' }, { fixed: '1.6.1' }),
    ])
    expect(fixedVersions(p, '0.6.5')).toEqual(['0.6.14'])
    expect(fixedVersions(p, '1.2.0')).toEqual(['1.6.1'])
    expect(fixedVersions(p, '1.6.1')).toEqual([])
    expect(fixedVersions(p, '0.1.0')).toEqual([])
  })

  it('collects the fixes of every range holding the version, lowest first', () => {
    const p = pkg('Maven', [
      ecosystemRange({ introduced: '2.13.0' }, { fixed: '2.15.0' }),
      ecosystemRange({ introduced: '2.0' }, { fixed: '2.16.0' }),
    ])
    expect(fixedVersions(p, '2.14.1')).toEqual(['2.15.0', '2.16.0'])
  })

  it('has nothing to offer for a range closed by last_affected, or an open one', () => {
    expect(fixedVersions(pkg('npm', [ecosystemRange({ introduced: '0' }, { last_affected: '1.0.0' })]), '0.5.0')).toEqual([])
    expect(fixedVersions(pkg('npm', [ecosystemRange({ introduced: '0' })]), '0.5.0')).toEqual([])
  })
})
