import { describe, expect, it } from 'vitest'
import { cvssBaseScore, severityOfLabel, severityOfScore } from './cvss.js'

describe('cvssBaseScore', () => {
  it('scores every CVSS version OSV carries', () => {
    expect(cvssBaseScore('CVSS_V2', 'AV:N/AC:L/Au:N/C:P/I:P/A:P')).toBe(7.5)
    expect(cvssBaseScore('CVSS_V3', 'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H')).toBe(10)
    expect(cvssBaseScore('CVSS_V3', 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H')).toBe(7.2)
    expect(cvssBaseScore('CVSS_V3', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N')).toBe(0)
    expect(cvssBaseScore('CVSS_V4', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N')).toBe(9.3)
    // Temporal and environmental metrics may follow; the base score ignores them.
    expect(cvssBaseScore('CVSS_V3', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:P/RL:O')).toBe(9.8)
  })

  it('throws on vectors that are incomplete, malformed or of another version', () => {
    const bad: [Parameters<typeof cvssBaseScore>[0], string][] = [
      ['CVSS_V3', 'garbage'],
      ['CVSS_V3', ''],
      ['CVSS_V3', 'CVSS:3.1/AV:N/AC:L'],
      ['CVSS_V3', 'CVSS:3.1/AV:Q/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
      ['CVSS_V3', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/ZZ:P'],
      ['CVSS_V3', 'AV:N/AC:L/Au:N/C:P/I:P/A:P'],
      ['CVSS_V2', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
      ['CVSS_V2', 'AV:N/AC:L/Au:N/C:P/I:P'],
      ['CVSS_V4', 'CVSS:4.0/AV:N'],
      ['CVSS_V4', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ]
    for (const [type, vector] of bad) expect(() => cvssBaseScore(type, vector), `${type} ${vector}`).toThrow()
  })
})

describe('severity scales', () => {
  it('rates scores on the CVSS v3 qualitative scale', () => {
    expect([10, 9, 8.9, 7, 6.9, 4, 3.9, 0.1, 0].map(severityOfScore)).toEqual([
      'critical',
      'critical',
      'high',
      'high',
      'medium',
      'medium',
      'low',
      'low',
      'unknown',
    ])
  })

  it('reads databases’ labels', () => {
    expect(['CRITICAL', 'High', 'MODERATE', 'medium', 'LOW', 'negligible', 7, undefined].map(severityOfLabel)).toEqual([
      'critical',
      'high',
      'medium',
      'medium',
      'low',
      null,
      null,
      null,
    ])
  })
})
