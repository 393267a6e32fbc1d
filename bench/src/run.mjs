// npm run bench [suite …]: Trove's figures, one table. Each row names its target; see
// docs/performance.md. With suite names, only those suites run (for example `npm run bench -- foundation`).
import { benchAbuse } from './abuse.mjs'
import { benchAccess } from './access.mjs'
import { benchArtifactTree } from './artifactTree.mjs'
import { benchCargo } from './cargo.mjs'
import { benchCluster } from './cluster.mjs'
import { benchClusterKill } from './clusterKill.mjs'
import { benchDashboard } from './dashboard.mjs'
import { benchDistribution } from './distribution.mjs'
import { benchFoundation } from './foundation.mjs'
import { benchGo } from './go.mjs'
import { benchImageScan } from './imageScan.mjs'
import { benchOci } from './oci.mjs'
import { benchOperations } from './operations.mjs'
import { benchPackages } from './packages.mjs'
import { benchPackagesBrowser } from './packagesBrowser.mjs'
import { benchPypi } from './pypi.mjs'
import { benchReliability } from './reliability.mjs'
import { benchRestore } from './reliability-restore.mjs'
import { benchRepositories } from './repositories.mjs'
import { benchScanner } from './scanner.mjs'
import { benchShell } from './shell.mjs'
import { benchUpstream } from './upstream.mjs'

/** Each area adds its suite here: a function that measures and reports rows. */
const suites = {
  foundation: benchFoundation,
  operations: benchOperations,
  access: benchAccess,
  repositories: benchRepositories,
  pypi: benchPypi,
  go: benchGo,
  cargo: benchCargo,
  shell: benchShell,
  oci: benchOci,
  packages: benchPackages,
  'packages-browser': benchPackagesBrowser,
  'artifact-tree': benchArtifactTree,
  'image-scan': benchImageScan,
  scanner: benchScanner,
  abuse: benchAbuse,
  restore: benchRestore,
  reliability: benchReliability,
  'cluster-kill': benchClusterKill,
  cluster: benchCluster,
  distribution: benchDistribution,
  upstream: benchUpstream,
  dashboard: benchDashboard,
}

const wanted = process.argv.slice(2)
const unknown = wanted.filter((name) => !(name in suites))
if (unknown.length > 0) {
  console.error(`Unknown benchmark suite: ${unknown.join(', ')} (known: ${Object.keys(suites).join(', ')})`)
  process.exit(2)
}

const rows = []
const row = (name, value, unit, target, ok, note = '') => rows.push({ name, value, unit, target, ok, note })
for (const [name, suite] of Object.entries(suites)) {
  if (wanted.length === 0 || wanted.includes(name)) await suite(row)
}

const header = ['benchmark', 'value', 'unit', 'target', 'met', 'notes']
const table = rows.map((r) => [r.name, r.value, r.unit, r.target, r.ok === null ? '-' : r.ok ? 'yes' : 'NO', r.note])
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => String(t[i]).length)))
const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`
console.log(line(header))
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
for (const t of table) console.log(line(t))
console.log(`\nnode ${process.versions.node}, ${(await import('node:os')).cpus().length} cores, ${new Date().toISOString()}`)
