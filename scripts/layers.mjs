// Draws the server's layers (scripts/layers.cjs, the lists the import rules are made from) as a
// Mermaid diagram into docs/architecture.md, between the layers markers.
//   node scripts/layers.mjs          rewrite the diagram
//   node scripts/layers.mjs --check  fail when the diagram is not the one the lists give (lint)
import fs from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { serverLayers, identityOrder, serviceUses } = require('./layers.cjs')
const doc = new URL('../docs/architecture.md', import.meta.url)
const START = '<!-- layers:start (drawn by scripts/layers.mjs from scripts/layers.cjs) -->'
const END = '<!-- layers:end -->'

function diagram() {
  const lines = ['```mermaid', 'flowchart TB']
  const byName = new Map(serverLayers.map((l) => [l.name, l]))
  const box = (name) => `${name}["<b>${name}</b><br/>${byName.get(name).what}"]`
  lines.push(`  ${box('app')}`)
  lines.push('  subgraph services')
  lines.push('    direction TB')
  for (const [service, uses] of Object.entries(serviceUses)) {
    if (uses.length === 0 && !Object.values(serviceUses).some((u) => u.includes(service)))
      lines.push(`    s_${service}[${service}]`)
    for (const used of uses) lines.push(`    s_${service}[${service}] --> s_${used}[${used}]`)
  }
  lines.push('  end')
  lines.push(`  ${box('formats')}`)
  lines.push(`  ${box('storage')}`)
  lines.push('  subgraph identity')
  lines.push('    direction TB')
  for (let i = identityOrder.length - 1; i > 0; i--)
    for (const part of identityOrder[i]) lines.push(`    i_${part}[${part}] --> i_${identityOrder[i - 1][0]}`)
  lines.push(`    i_${identityOrder[0][0]}[${identityOrder[0][0]}]`)
  lines.push('  end')
  lines.push(`  ${box('core')}`)
  lines.push('  app --> services --> formats --> storage --> identity --> core')
  lines.push('```')
  return lines.join('\n')
}

const text = fs.readFileSync(doc, 'utf8')
const start = text.indexOf(START)
const end = text.indexOf(END)
if (start < 0 || end < start) {
  console.error(`docs/architecture.md has no ${START} … ${END} block`)
  process.exit(1)
}
const next = `${text.slice(0, start + START.length)}\n${diagram()}\n${text.slice(end)}`
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error('docs/architecture.md: the layers diagram is not the one scripts/layers.cjs gives; run node scripts/layers.mjs')
    process.exit(1)
  }
} else if (next !== text) {
  fs.writeFileSync(doc, next)
  console.log('docs/architecture.md: layers diagram redrawn')
}
