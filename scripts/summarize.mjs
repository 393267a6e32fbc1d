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
const failures = []
// The first lines of a failure's message, without colour codes: enough to name the cause.
const firstLines = (text, n = 6) =>
  String(text ?? '')
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .split('\n')
    .filter((line) => line.trim())
    .slice(0, n)
    .map((line) => `      ${line.slice(0, 200)}`)
    .join('\n')
// Vitest reports a test or hook that ran out of time with the stack of where it was declared, whose
// first line reads "Error: STACK_TRACE_ERROR": say what happened instead. Frames inside vitest itself
// name nothing of ours.
const vitestFailure = (text) =>
  String(text ?? '')
    .replace(/^Error: STACK_TRACE_ERROR\n/, 'Timed out: the test or hook ran past its time limit\n')
    .split('\n')
    .filter((line) => !/^\s*at .*node_modules\/(@vitest|vitest)\//.test(line))
    .join('\n')
// Playwright nests suites (files, describes); every spec holds its tests and their attempts.
function playwrightFailures(suite, name) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status !== 'unexpected') continue
      const error = test.results?.find((r) => r.error)?.error
      failures.push(`  ${name}: ${spec.file}:${spec.line} › ${spec.title}\n${firstLines(error?.message ?? error?.value)}`)
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, name)
}
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
      for (const suite of json.suites ?? []) playwrightFailures(suite, name)
    } else {
      // Vitest
      p = json.numPassedTests
      // A file that failed to load has no failing test of its own: count it once.
      const crashedFiles = json.testResults.filter(
        (file) => file.status === 'failed' && !file.assertionResults.some((a) => a.status === 'failed'),
      ).length
      f = json.numFailedTests + crashedFiles
      s = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0)
      for (const file of json.testResults) {
        const where = path.relative(process.cwd(), file.name)
        const failedTests = file.assertionResults.filter((a) => a.status === 'failed')
        for (const a of failedTests)
          failures.push(`  ${name}: ${where} › ${a.fullName}\n${firstLines(vitestFailure(a.failureMessages?.[0]))}`)
        if (file.status === 'failed' && failedTests.length === 0)
          failures.push(`  ${name}: ${where}\n${firstLines(file.message)}`)
      }
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
if (failures.length > 0) console.log(`\nFailed:\n${failures.join('\n')}`)
console.log(`\n${rows.join('\n')}\n`)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 ? 1 : 0)
