import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// The console's import direction: app → features → shared (ui, lib). Features do not import each
// other, and shared code imports no feature and nothing of app; route files compose features.
const src = path.dirname(new URL(import.meta.url).pathname)

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return files(full)
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : []
  })
}

function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) =>
    path.resolve(path.dirname(file), m[1] ?? ''),
  )
}

const area = (file: string) => {
  const [top, name] = path.relative(src, file).split(path.sep)
  return top === 'features' ? `features/${name}` : (top ?? '')
}

describe('import boundaries', () => {
  const violations: string[] = []
  for (const file of files(src)) {
    if (file.includes(`${path.sep}test${path.sep}`) || file.endsWith('.test.ts') || file.endsWith('.test.tsx')) continue
    const from = area(file)
    for (const target of imports(file)) {
      const to = area(target)
      const rel = `${path.relative(src, file)} → ${path.relative(src, target)}`
      if (from.startsWith('features/') && to.startsWith('features/') && to !== from)
        violations.push(`feature imports another feature: ${rel}`)
      if (from.startsWith('features/') && to === 'app') violations.push(`feature imports app: ${rel}`)
      if ((from === 'ui' || from === 'lib') && (to.startsWith('features/') || to === 'app'))
        violations.push(`shared code imports ${to}: ${rel}`)
    }
  }

  it('hold: app → features → shared', () => {
    expect(violations).toEqual([])
  })

  it('are checked against real files', () => {
    expect(files(path.join(src, 'features')).length).toBeGreaterThan(5)
  })
})
