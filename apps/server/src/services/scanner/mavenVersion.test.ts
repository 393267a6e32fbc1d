import { describe, expect, it } from 'vitest'
import { compareMavenVersions } from './mavenVersion.js'

/** Every later version must sort after every earlier one, both ways round. */
function expectAscending(versions: string[]) {
  for (let i = 0; i < versions.length; i++) {
    for (let j = i + 1; j < versions.length; j++) {
      const low = versions[i] as string
      const high = versions[j] as string
      expect(compareMavenVersions(low, high), `${low} < ${high}`).toBeLessThan(0)
      expect(compareMavenVersions(high, low), `${high} > ${low}`).toBeGreaterThan(0)
    }
  }
}

function expectEqual(a: string, b: string) {
  expect(compareMavenVersions(a, b), `${a} == ${b}`).toBe(0)
  expect(compareMavenVersions(b, a), `${b} == ${a}`).toBe(0)
}

describe('Maven version order (the cases of Maven’s ComparableVersionTest)', () => {
  it('orders qualifiers', () => {
    expectAscending([
      '1-alpha2snapshot',
      '1-alpha2',
      '1-alpha-123',
      '1-beta-2',
      '1-beta123',
      '1-m2',
      '1-m11',
      '1-rc',
      '1-cr2',
      '1-rc123',
      '1-SNAPSHOT',
      '1',
      '1-sp',
      '1-sp2',
      '1-sp123',
      '1-abc',
      '1-def',
      '1-pom-1',
      '1-1-snapshot',
      '1-1',
      '1-2',
      '1-123',
    ])
  })

  it('orders numbers, and numbers against qualifiers', () => {
    expectAscending([
      '2.0',
      '2-1',
      '2.0.a',
      '2.0.0.a',
      '2.0.2',
      '2.0.123',
      '2.1.0',
      '2.1-a',
      '2.1b',
      '2.1-c',
      '2.1-1',
      '2.1.0.1',
      '2.2',
      '2.123',
      '11.a2',
      '11.a11',
      '11.b2',
      '11.b11',
      '11.m2',
      '11.m11',
      '11',
      '11.a',
      '11b',
      '11c',
      '11m',
    ])
  })

  it('treats trailing zeros, separators and aliases as equal', () => {
    for (const [a, b] of [
      ['1', '1'],
      ['1', '1.0'],
      ['1', '1.0.0'],
      ['1.0', '1.0.0'],
      ['1', '1-0'],
      ['1', '1.0-0'],
      ['1.0', '1.0-0'],
      // No separator between a number and a letter: the transition counts as a hyphen.
      ['1a', '1-a'],
      ['1a', '1.0-a'],
      ['1a', '1.0.0-a'],
      ['1.0a', '1-a'],
      ['1.0.0a', '1-a'],
      ['1x', '1-x'],
      ['1x', '1.0-x'],
      ['1x', '1.0.0-x'],
      ['1.0x', '1-x'],
      ['1.0.0x', '1-x'],
      // Leading zeros carry no meaning, however many.
      ['0000000000000000001', '1'],
      ['0000000000000000001.0000000000000000002', '1.2'],
      ['0000', '0'],
      ['0000000000000000000000', '0'],
      ['1ga', '1'],
      ['1final', '1'],
      ['1release', '1'],
      ['1cr', '1rc'],
      ['1a1', '1alpha1'],
      ['1b2', '1beta2'],
      ['1m3', '1milestone3'],
      ['1X', '1x'],
      ['1A', '1a'],
      ['1Ga', '1'],
      ['1FINAL', '1'],
      ['1cR', '1rC'],
      ['1m3', '1MileStone3'],
      ['1-abcdefghijklmnopqrstuvwxyz', '1-ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
      ['5.3.18.RELEASE', '5.3.18'],
      ['1.007', '1.7'],
    ] as const) {
      expectEqual(a, b)
    }
  })

  it('compares pairs as Maven does', () => {
    for (const [low, high] of [
      ['1', '2'],
      ['1.5', '2'],
      ['1', '2.5'],
      ['1.0', '1.1'],
      ['1.1', '1.2'],
      ['1.0.0', '1.1'],
      ['1.0.1', '1.1'],
      ['1.1', '1.2.0'],
      ['1.0-alpha-1', '1.0'],
      ['1.0-alpha-1', '1.0-alpha-2'],
      ['1.0-alpha-1', '1.0-beta-1'],
      ['1.0-beta-1', '1.0-SNAPSHOT'],
      ['1.0-SNAPSHOT', '1.0'],
      ['1.0-alpha-1-SNAPSHOT', '1.0-alpha-1'],
      ['1.0', '1.0-1'],
      ['1.0-1', '1.0-2'],
      ['1.0.0', '1.0-1'],
      ['2.0-1', '2.0.1'],
      ['2.0.1-klm', '2.0.1-lmn'],
      ['2.0.1', '2.0.1-xyz'],
      ['2.0.1', '2.0.1-123'],
      ['2.0.1-xyz', '2.0.1-123'],
      // MNG-5568: a letter inside the numbers.
      ['6.1.0rc3', '6.1.0'],
      ['6.1.0rc3', '6.1H.5-beta'],
      ['6.1.0', '6.1H.5-beta'],
      // MNG-6572: numbers of any length.
      ['20190126.230843', '1234567890.12345'],
      ['1234567890.12345', '123456789012345.1H.5-beta'],
      ['123456789012345.1H.5-beta', '12345678901234567890.1H.5-beta'],
      // MNG-6964: a nested list compared with nothing looks at all its items, not only its first.
      ['1-0.alpha', '1'],
      ['1-0.beta', '1'],
      ['1-0.alpha', '1-0.beta'],
      ['1', '1-0.1'],
      // Numbers longer than any machine integer still compare by value.
      ['1.99999999999999999999', '1.100000000000000000000'],
    ] as const) {
      expectAscending([low, high])
    }
  })

  it('orders the releases that real advisories name', () => {
    expectAscending(['2.0-beta9', '2.0-rc1', '2.0', '2.3.1', '2.4', '2.12.2', '2.13.0', '2.14.1', '2.15.0', '2.16.0', '2.17.1'])
    expectAscending(['30.1-android', '30.1-jre', '31.1-jre', '32.0.0-android', '32.0.0-jre'])
    expectAscending(['5.3.0.M1', '5.3.0.RC1', '5.3.0', '5.3.18.RELEASE', '5.3.19'])
  })
})
