import fc from 'fast-check'

/**
 * How many cases a property test runs: a bounded number by default, so each file stays quick on
 * a small machine, and `FUZZ_RUNS` cases (e.g. FUZZ_RUNS=10000) when the bench asks for more.
 */
export function fuzzRuns(byDefault: number, most = Number.POSITIVE_INFINITY): number {
  return asked ? Math.min(asked, most) : byDefault
}

const asked = ((n) => (Number.isInteger(n) && n > 0 ? n : undefined))(Number(process.env.FUZZ_RUNS))

/**
 * The seed of the cases: fixed for the bounded runs, so the suite asks the same cases every run and
 * a red run is a finding to fix, not chance; FUZZ_SEED picks another; with FUZZ_RUNS and no
 * FUZZ_SEED every run draws new cases (the bench's long runs, which look for new findings).
 */
export const FUZZ_SEED: number | undefined = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : asked ? undefined : 20261125

/** A test's own time limit: vitest's default for the bounded runs, ten minutes when FUZZ_RUNS asks for more. */
export const FUZZ_TEST_TIMEOUT = asked ? 600_000 : undefined

/**
 * fast-check's parameters for a property: the runs above (at most `most` of a costly one), and a
 * time limit per case that turns a hang into a failure.
 */
export const fuzzParams = (byDefault: number, options: { timeoutMs?: number; most?: number } = {}): fc.Parameters<unknown> => ({
  numRuns: fuzzRuns(byDefault, options.most),
  timeout: options.timeoutMs ?? 5_000,
  ...(FUZZ_SEED === undefined ? {} : { seed: FUZZ_SEED }),
})

/** Strings a hostile client would try in a path or an entry name, mixed with arbitrary ones. */
export const hostileSegment = fc.oneof(
  fc.constantFrom('..', '.', '', '/', '\\', 'C:\\', 'c:/', '\0', '%2e%2e', '..\\..', '~', ' ', '\u202e', 'CON', 'a'.repeat(300)),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
)

/** A path of hostile segments joined by `/` (sometimes `\`), sometimes absolute. */
export const hostilePath = fc
  .tuple(fc.boolean(), fc.array(hostileSegment, { minLength: 1, maxLength: 6 }), fc.constantFrom('/', '\\'))
  .map(([absolute, parts, sep]) => `${absolute ? sep : ''}${parts.join(sep)}`)
