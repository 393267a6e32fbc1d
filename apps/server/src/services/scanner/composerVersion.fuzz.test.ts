import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FUZZ_TEST_TIMEOUT, fuzzParams } from '../../../test/fuzz.js'
import { compareComposer, normalizeComposer, parseComposer } from './composerVersion.js'

/** Version-like text: numbers, separators, stability words and noise, in any order and length. */
const piece = fc.oneof(
  fc.constantFrom('.', '-', '_', '+', 'v', 'dev', 'alpha', 'a', 'beta', 'b', 'RC', 'rc', 'patch', 'pl', 'p', 'stable', 'x', '*'),
  fc.constantFrom(' as ', '@dev', 'dev-', 'master'),
  fc.nat({ max: 99_999 }).map(String),
  fc.string({ maxLength: 4 }),
)
const versionLike = fc.oneof(
  fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 300 }),
  // Long runs of digits and separators, where a backtracking expression would blow up.
  fc
    .tuple(
      fc.constantFrom('1.0.0-beta', '2010-01-02', '1.', 'v'),
      fc.array(fc.constantFrom('1', '.', '-', '11'), { maxLength: 200 }),
    )
    .map(([head, tail]) => `${head}${tail.join('')}x`),
)

describe('Composer versions from anywhere', () => {
  it(
    'are normalised or refused, never thrown over, and ordered consistently',
    () => {
      fc.assert(
        fc.property(versionLike, versionLike, (a, b) => {
          const normalized = normalizeComposer(a)
          expect(normalized === null || typeof normalized === 'string').toBe(true)
          const left = parseComposer(a)
          const right = parseComposer(b)
          if (!left || !right) return
          const order = Math.sign(compareComposer(left, right))
          expect(Math.sign(compareComposer(right, left))).toBe(-order || 0)
          expect(compareComposer(left, left)).toBe(0)
          // A normalised version is a fixed point: normalising it again changes nothing.
          expect(normalizeComposer(left.normalized)).toBe(left.normalized)
        }),
        fuzzParams(2000, { timeoutMs: 1000 }),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})
