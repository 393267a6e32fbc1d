/**
 * CVSS base scores from OSV `severity[]` vectors (CVSS_V2, CVSS_V3, CVSS_V4), computed by
 * ae-cvss-calculator, and the CVSS v3 qualitative scale Trove reports them on.
 */
import cvss from 'ae-cvss-calculator'
import type { Severity } from './types.js'

export const CVSS_TYPES = ['CVSS_V2', 'CVSS_V3', 'CVSS_V4'] as const
export type CvssType = (typeof CVSS_TYPES)[number]

export const isCvssType = (type: string): type is CvssType => (CVSS_TYPES as readonly string[]).includes(type)

/** Base metrics each version's vector must carry; the calculator quietly scores partial vectors as 0. */
const BASE_METRICS: Record<string, string[]> = {
  '2': ['AV', 'AC', 'Au', 'C', 'I', 'A'],
  '3': ['AV', 'AC', 'PR', 'UI', 'S', 'C', 'I', 'A'],
  '4': ['AV', 'AC', 'AT', 'PR', 'UI', 'VC', 'VI', 'VA', 'SC', 'SI', 'SA'],
}

function calculator(type: CvssType, vector: string) {
  if (type === 'CVSS_V2') {
    if (vector.startsWith('CVSS:')) throw new Error('a CVSS v2 vector has no CVSS: prefix')
    return { metrics: BASE_METRICS['2'], score: () => new cvss.Cvss2(vector).calculateScores().base }
  }
  if (type === 'CVSS_V3') {
    if (vector.startsWith('CVSS:3.0/'))
      return { metrics: BASE_METRICS['3'], score: () => new cvss.Cvss3P0(vector).calculateScores().base }
    if (vector.startsWith('CVSS:3.1/'))
      return { metrics: BASE_METRICS['3'], score: () => new cvss.Cvss3P1(vector).calculateScores().base }
    throw new Error('a CVSS v3 vector starts with CVSS:3.0/ or CVSS:3.1/')
  }
  if (vector.startsWith('CVSS:4.0/'))
    return { metrics: BASE_METRICS['4'], score: () => new cvss.Cvss4P0(vector).calculateScores().base }
  throw new Error('a CVSS v4 vector starts with CVSS:4.0/')
}

/** The base score of a vector of the given type; throws (with a reason) on anything that is not a complete vector. */
export function cvssBaseScore(type: CvssType, vector: string): number {
  const { metrics, score } = calculator(type, vector)
  const present = new Set(
    vector
      .split('/')
      .map((part) => part.split(':')[0])
      .filter((key) => key !== 'CVSS'),
  )
  const missing = (metrics ?? []).filter((metric) => !present.has(metric))
  if (missing.length > 0)
    throw new Error(`the vector lacks the base metric${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  let base: number | undefined
  try {
    base = score()
  } catch (error) {
    throw new Error(`not a valid vector (${(error as Error).message})`)
  }
  if (typeof base !== 'number' || !Number.isFinite(base) || base < 0 || base > 10) throw new Error('not a valid vector')
  return base
}

/** The CVSS v3 qualitative rating of a base score; a score of 0 rates nothing. */
export function severityOfScore(score: number): Severity {
  if (score >= 9) return 'critical'
  if (score >= 7) return 'high'
  if (score >= 4) return 'medium'
  if (score > 0) return 'low'
  return 'unknown'
}

/** GitHub's and other databases' textual severities (CRITICAL, HIGH, MODERATE, MEDIUM, LOW), any case. */
export function severityOfLabel(label: unknown): Severity | null {
  if (typeof label !== 'string') return null
  switch (label.trim().toLowerCase()) {
    case 'critical':
      return 'critical'
    case 'high':
      return 'high'
    case 'moderate':
    case 'medium':
      return 'medium'
    case 'low':
      return 'low'
    default:
      return null
  }
}
