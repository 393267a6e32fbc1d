// Adds up the suites' results: vitest and Playwright JSON reports count their tests; lint, typecheck
// and build count as one check each. Prints a table and the closing "N passed, N failed" line.
import fs from 'node:fs'
import path from 'node:path'

const dir = process.argv[2]
const checks = fs
  .readFileSync(path.join(dir, 'checks.txt'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split(' '))

let passed = 0
let failed = 0
let skipped = 0
const rows = []
for (const [name, outcome] of checks) {
  const report = path.join(dir, `${name}.json`)
  let p = 0
  let f = 0
  let s = 0
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'))
    if (json.stats) {
      // Playwright
      p = json.stats.expected + (json.stats.flaky ?? 0)
      f = json.stats.unexpected
      s = json.stats.skipped
    } else {
      // Vitest
      p = json.numPassedTests
      // A file that failed to load has no failing test of its own: count it once.
      const crashedFiles = json.testResults.filter(
        (file) => file.status === 'failed' && !file.assertionResults.some((a) => a.status === 'failed'),
      ).length
      f = json.numFailedTests + crashedFiles
      s = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0)
    }
    // A suite that failed without a failing test (a crash, no tests run) still counts as a failure.
    if (outcome === 'fail' && f === 0) f = 1
    if (outcome === 'pass' && p === 0) f += 1
  } else if (outcome === 'pass') p = 1
  else f = 1
  passed += p
  failed += f
  skipped += s
  rows.push(`  ${name.padEnd(18)} ${String(p).padStart(5)} passed ${String(f).padStart(4)} failed${s ? ` ${s} skipped` : ''}`)
}
console.log(`\n${rows.join('\n')}\n`)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
