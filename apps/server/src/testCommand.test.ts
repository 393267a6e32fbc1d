import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../test/testApp.js'

// The test command (scripts/test-all.sh) runs each suite, then scripts/summarize.mjs adds up their
// reports and sets the exit code. Here a real vitest run of a failing and of a passing test feeds it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const vitestBin = path.join(root, 'node_modules/.bin/vitest')

function runSuite(dir: string, name: string, body: string) {
  const project = path.join(dir, name)
  fs.mkdirSync(project)
  fs.writeFileSync(path.join(project, 'vitest.config.mjs'), 'export default { test: { include: ["*.test.mjs"] } }\n')
  fs.writeFileSync(path.join(project, 'one.test.mjs'), `import { expect, it } from 'vitest'\n${body}\n`)
  const run = spawnSync(vitestBin, ['run', '--reporter=json', `--outputFile.json=${path.join(dir, 'results', `${name}.json`)}`], {
    cwd: project,
    encoding: 'utf8',
  })
  fs.appendFileSync(path.join(dir, 'results', 'checks.txt'), `${name} ${run.status === 0 ? 'pass' : 'fail'}\n`)
}

function summarize(dir: string) {
  return spawnSync(process.execPath, [path.join(root, 'scripts/summarize.mjs'), path.join(dir, 'results')], { encoding: 'utf8' })
}

describe('the test command', () => {
  it('fails when any test fails, and passes when all pass', () => {
    const dir = tempDir()
    fs.mkdirSync(path.join(dir, 'results'))
    runSuite(dir, 'good', "it('adds', () => expect(1 + 1).toBe(2))")
    const allPass = summarize(dir)
    expect(allPass.status, allPass.stdout).toBe(0)
    expect(allPass.stdout).toContain('1 passed, 0 failed')

    runSuite(dir, 'bad', "it('adds wrongly', () => expect(1 + 1).toBe(3))")
    const oneFails = summarize(dir)
    expect(oneFails.status, oneFails.stdout).toBe(1)
    expect(oneFails.stdout).toContain('1 passed, 1 failed')
    fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it('says that a test ran out of time, and where it is', () => {
    const dir = tempDir()
    fs.mkdirSync(path.join(dir, 'results'))
    runSuite(dir, 'slow', "it('waits', () => new Promise((r) => setTimeout(r, 2000)), 200)")
    const summary = summarize(dir)
    expect(summary.status, summary.stdout).toBe(1)
    expect(summary.stdout).toContain('slow/one.test.mjs › waits')
    expect(summary.stdout).toContain('Timed out: the test or hook ran past its time limit')
    expect(summary.stdout).toMatch(/at .*slow\/one\.test\.mjs:2:/)
    expect(summary.stdout).not.toContain('@vitest/runner')
    expect(summary.stdout).not.toContain('STACK_TRACE_ERROR')
    fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)
})
