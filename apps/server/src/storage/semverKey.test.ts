import semver from 'semver'
import { describe, expect, it } from 'vitest'
import { globCondition, prefixEnd } from '../services/packages/repo.js'
import { isSemverRelease, semverKey } from './semverKey.js'

const byKey = (versions: string[]) =>
  [...versions].sort((a, b) => {
    const ka = semverKey(a)
    const kb = semverKey(b)
    return ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0
  })

describe('semverKey', () => {
  it('orders semantic versions as semver does (the example list of semver.org and more)', () => {
    const versions = [
      '1.0.0',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '0.9.99',
      '1.10.0',
      '1.2.0',
      '10.0.0',
      '2.0.0',
      '2.0.0+build.7',
      '1.0.1',
      '0.0.1',
    ]
    expect(byKey(versions)).toEqual([...versions].sort((a, b) => semver.compare(a, b) || (a < b ? -1 : 1)))
  })

  it('agrees with semver on random versions', () => {
    let seed = 7
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const pre = ['', '-alpha', '-beta.1', '-beta.10', '-rc.2', '-0', '-x.7.z']
    const versions = Array.from({ length: 500 }, () => `${rand(20)}.${rand(120)}.${rand(1100)}${pre[rand(pre.length)]}`)
    const unique = [...new Set(versions)]
    expect(byKey(unique)).toEqual([...unique].sort(semver.compare))
  })

  it('orders other version shapes sensibly', () => {
    expect(byKey(['1.0', '1.0.0.1', '0.9', '1.0-SNAPSHOT', 'latest', 'alpine', 'v2.1.0'])).toEqual([
      'alpine',
      'latest',
      '0.9',
      '1.0-SNAPSHOT',
      '1.0',
      '1.0.0.1',
      'v2.1.0',
    ])
  })

  it('tells semver releases', () => {
    expect(['1.2.3', 'v1.2.3', '1.2.3+build'].every(isSemverRelease)).toBe(true)
    expect(['1.2.3-rc.1', '1.2', 'latest', '1.2.3.4'].some(isSemverRelease)).toBe(false)
  })
})

describe('name globs', () => {
  it('turn a prefix into a byte range', () => {
    expect(prefixEnd('react')).toBe('reacu')
    expect(globCondition('sqlite', 'p.name', '*')).toBeNull()
  })
})
