import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { cruise, type ICruiseResult } from 'dependency-cruiser'
import { afterAll, describe, expect, it } from 'vitest'
import { formats } from './formats/index.js'

// The import rules `npm run lint` applies (.dependency-cruiser.cjs), tried on a small tree that
// breaks each of them once: a rule that stopped catching its kind of import fails here.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const require = createRequire(import.meta.url)
const config = require(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: object }

const tree: Record<string, string> = {
  // allowed: each layer importing those below it, through their faces
  'apps/server/src/core/errors.ts': 'export const e = 1\n',
  'apps/server/src/identity/users/repo.ts': "import { e } from '../../core/errors.js'\nexport const u = e\n",
  'apps/server/src/identity/index.ts': "export { u } from './users/repo.js'\n",
  'apps/server/src/storage/service.ts': "import { u } from '../identity/index.js'\nexport const s = u\n",
  'apps/server/src/formats/kit/types.ts': "import { s } from '../../storage/service.js'\nexport const k = s\n",
  'apps/server/src/formats/npm/index.ts': "import { k } from '../kit/types.js'\nexport const npm = k\n",
  'apps/server/src/formats/pypi/index.ts': "import { k } from '../kit/types.js'\nexport const pypi = k\n",
  'apps/server/src/formats/index.ts': "export { npm } from './npm/index.js'\nexport { pypi } from './pypi/index.js'\n",
  'apps/server/src/services/builds/index.ts': "import { npm } from '../../formats/index.js'\nexport const b = npm\n",
  'apps/server/src/services/scanner/index.ts': "import { b } from '../builds/index.js'\nexport const sc = b\n",
  'apps/server/src/app.ts': "import { sc } from './services/scanner/index.js'\nexport const app = sc\n",
  // each of these breaks one rule
  'apps/server/src/core/upward.ts': "import { u } from '../identity/index.js'\nexport const x = u\n",
  'apps/server/src/identity/users/upward.ts': "import '../auth/service.js'\n",
  'apps/server/src/identity/auth/service.ts': 'export const a = 1\n',
  'apps/server/src/formats/npm/other.ts': "import { pypi } from '../pypi/index.js'\nexport const y = pypi\n",
  'apps/server/src/formats/kit/registry.ts': "import '../index.js'\n",
  'apps/server/src/storage/deep.ts': "import { u } from '../identity/users/repo.js'\nexport const d = u\n",
  'apps/server/src/services/builds/upward.ts': "import '../scanner/index.js'\n",
  'apps/server/src/services/scanner/deep.ts': "import '../builds/upward.js'\n",
  'apps/server/src/services/scanner/a.ts': "import { c } from './c.js'\nexport const a2 = c\n",
  'apps/server/src/services/scanner/c.ts': "import { a2 } from './a.js'\nexport const c = () => a2\n",
  'apps/web/src/features/one/One.ts': "import { two } from '../two/Two'\nexport const one = two\n",
  'apps/web/src/features/two/Two.ts': 'export const two = 2\n',
  'apps/web/src/ui/Shared.ts': "import { one } from '../features/one/One'\nexport const shared = one\n",
  'apps/web/src/features/two/UsesApp.ts': "import { app } from '../../app/App'\nexport const z = app\n",
  'apps/web/src/app/App.ts': 'export const app = 1\n',
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-layers-'))
for (const [file, text] of Object.entries(tree)) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  fs.writeFileSync(path.join(dir, file), text)
}
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

async function violations(): Promise<string[]> {
  const result = await cruise(['apps/server/src', 'apps/web/src'], {
    ...config.options,
    baseDir: dir,
    ruleSet: { forbidden: config.forbidden },
    validate: true,
  } as never)
  const output = result.output as ICruiseResult
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()
}

describe('the import rules', () => {
  it('catch each kind of wrong import, and nothing else', async () => {
    const found = await violations()
    const by = (rule: string) => found.filter((v) => v.startsWith(`${rule}:`)).map((v) => v.slice(rule.length + 2))
    expect(by('server-core-imports-down')).toEqual(['apps/server/src/core/upward.ts → apps/server/src/identity/index.ts'])
    expect(by('identity-users-imports-down')).toEqual([
      'apps/server/src/identity/users/upward.ts → apps/server/src/identity/auth/service.ts',
    ])
    expect(by('formats-apart')).toEqual(['apps/server/src/formats/npm/other.ts → apps/server/src/formats/pypi/index.ts'])
    expect(by('format-kit-knows-no-format')).toEqual([
      'apps/server/src/formats/kit/registry.ts → apps/server/src/formats/index.ts',
    ])
    expect(by('through-the-face-of-identity')).toEqual([
      'apps/server/src/storage/deep.ts → apps/server/src/identity/users/repo.ts',
    ])
    expect(by('service-builds-uses-only-its-ports')).toEqual([
      'apps/server/src/services/builds/upward.ts → apps/server/src/services/scanner/index.ts',
    ])
    expect(by('through-the-face-of-services-builds')).toEqual([
      'apps/server/src/services/scanner/deep.ts → apps/server/src/services/builds/upward.ts',
    ])
    expect(by('no-circular').length).toBeGreaterThan(0)
    expect(by('no-circular').every((v) => v.includes('services/scanner/') || v.includes('services/builds/'))).toBe(true)
    expect(by('web-features-apart')).toEqual(['apps/web/src/features/one/One.ts → apps/web/src/features/two/Two.ts'])
    expect(by('web-shared-below-features')).toEqual(['apps/web/src/ui/Shared.ts → apps/web/src/features/one/One.ts'])
    expect(by('web-features-below-app')).toEqual(['apps/web/src/features/two/UsesApp.ts → apps/web/src/app/App.ts'])
    const named = new Set(
      [
        'server-core-imports-down',
        'identity-users-imports-down',
        'formats-apart',
        'format-kit-knows-no-format',
        'through-the-face-of-identity',
        'service-builds-uses-only-its-ports',
        'through-the-face-of-services-builds',
        'no-circular',
        'web-features-apart',
        'web-shared-below-features',
        'web-features-below-app',
      ].map((r) => `${r}:`),
    )
    expect(found.filter((v) => ![...named].some((r) => v.startsWith(r)))).toEqual([])
  })

  it('hold on the code itself', async () => {
    const result = await cruise(['apps/server/src', 'apps/web/src'], {
      ...config.options,
      baseDir: root,
      ruleSet: { forbidden: config.forbidden },
      validate: true,
    } as never)
    const output = result.output as ICruiseResult
    expect(output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([])
    expect(output.summary.totalCruised).toBeGreaterThan(300)
  })
})

describe('the formats', () => {
  it('are one folder each, every folder in the registry once', () => {
    const here = path.join(path.dirname(fileURLToPath(import.meta.url)), 'formats')
    const folders = fs
      .readdirSync(here, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'kit')
      .map((d) => d.name)
      .sort()
    expect(formats.map((f) => f.type).sort()).toEqual(folders)
    for (const folder of folders) expect(fs.existsSync(path.join(here, folder, 'index.ts'))).toBe(true)
  })
})
