// Records the version and source revision next to the build, so /api/system/version can tell
// exactly what is running without a git checkout at run time.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
let revision = process.env.TROVE_REVISION ?? 'unknown'
try {
  revision = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .toString()
    .trim()
} catch {
  // not a git checkout: keep the fallback
}
writeFileSync(
  new URL('../dist/build-info.json', import.meta.url),
  `${JSON.stringify({ version: pkg.version, revision }, null, 2)}\n`,
)
