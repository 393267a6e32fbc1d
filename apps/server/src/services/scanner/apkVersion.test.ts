import { describe, expect, it } from 'vitest'
import { type ApkVersion, compareApk, parseApk } from './apkVersion.js'

const parsed = (v: string): ApkVersion => {
  const p = parseApk(v)
  if (!p) throw new Error(`${v} did not parse`)
  return p
}
const compare = (a: string, b: string) => Math.sign(compareApk(parsed(a), parsed(b))) || 0

describe('Alpine (apk) version order', () => {
  // Pairs from apk-tools' test/version.data and in its style: "a op b".
  const pairs = `
    2.34 > 0.1.0_alpha
    0.1.0_alpha = 0.1.0_alpha
    0.1.0_alpha < 0.1.3_alpha
    0.1.0_alpha2 > 0.1.0_alpha
    2.2.39-r1 > 1.0.4-r3
    1.0.4-r3 < 1.0.4-r4
    1.0.4-r4 < 1.6
    1.1 > 1.1_alpha1
    1.2.1 > 1.2
    1.2 < 1.3_alpha
    1.3_alpha < 1.3_alpha2
    0.8_beta1 < 0.8_beta2
    2.3.0b-r1 < 2.3.0b-r2
    2.3.0b-r4 > 0.12.1
    0.12.3 > 0.12
    0.12 < 0.13_beta1
    1.2.11 < 1.2.12.1
    1.2.12.1 < 1.2.13
    3.1_p16 < 3.1_p17
    3.1_p17 > 1.06-r6
    1.06-r6 < 006
    1.2.2-r1 > 1.2.2
    2.59 < 20050718-r1
    3.9.8-r5 > 2.01.01_alpha10
    1.0 > 0.99.3.20040818
    1.07-r1 < 1.07.5
    1.07 < 1.19
    0.1_pre20060810 < 0.1_pre20060817
    20061003 > 0.1_pre20060810
    1.6d > 1.2.07.8
    1.2.07.8 < 1.2.12.04
    2.5.1-r8 < 2.5.1a-r1
    3.0.0-r2 < 021109-r3
    0.20070118 < 0.20070207_rc1
    0.20070207_rc1 < 1.0
    4.5_p1-r1 > 4.5_p1
    0.9.8c-r1 < 0.9.8d
    1.7 < 1.7b
    1.8.5 < 1.8.5_p2
    0.98 < 1.00
    0.9.28-r2 < 0.9.28.1
    087-r1 < 103
    1.2.5_rc2 > 0.1
    2.12r-r4 < 2.12r-r5
    7.0.17 < 7.0.174
    2.9.11_pre20051101-r3 > 2.9.11_pre20051101
    1.3-r0 < 1.3.1-r0
    1.3_pre1-r1 < 1.3.2
    1.0_p10-r0 > 1.0_p9-r0
    0.1.0_alpha_pre2 < 0.1.0_alpha
    1.0.0_pre20191002222144-r0 < 1.0.0_pre20210530193627-r0
    1.0 < 1.0.0
    1.02 < 1.2
    1.0_rc1 < 1.0
    1.0 < 1.0_p1
    1.0_alpha < 1.0_beta
    1.0_beta < 1.0_pre
    1.0_pre < 1.0_rc
    1.0_cvs < 1.0_svn
    1.0_svn < 1.0_git
    1.0_git < 1.0_hg
    1.0_hg < 1.0_p
    3.1.1-r2 < 3.1.1-r3
    3.1.1-r3 < 3.1.2-r0
    3.1.4-r0 > 3.1.1-r10
    1.0 < 1.00
    1.0_git20230101~abc1 < 1.0_git20230101~abc2
    1.0_git20230101~abc1-r1 > 1.0_git20230101~abc1
  `
  for (const line of pairs.trim().split('\n')) {
    const [a, op, b] = line.trim().split(/\s+/) as [string, string, string]
    it(`${a} ${op} ${b}`, () => {
      const expected = op === '<' ? -1 : op === '>' ? 1 : 0
      expect(compare(a, b)).toBe(expected)
      expect(compare(b, a)).toBe(-expected || 0)
    })
  }

  it('refuses what apk-tools would not take as a version', () => {
    for (const bad of ['', 'abc', 'v1.0', '1..2', '1.0_foo', '23_foo', '1.0-1', '1.2a.3', '1.0bc', '1.0~', '1.0 ']) {
      expect(parseApk(bad), bad).toBeNull()
    }
    for (const good of ['0', '1.0', '1.2.3-r0', '1.0_alpha1_p2-r5', '2.12r-r4', '6b-r7', '1.0_git20230101~abc12f-r0']) {
      expect(parseApk(good), good).not.toBeNull()
    }
  })
})
