/**
 * The direction of imports, written once: `npm run lint` checks every import of the server's and
 * the console's code (tests aside) against these rules, made from the lists in scripts/layers.cjs
 * (docs/architecture.md's diagram is generated from the same lists). Lower layers never import
 * higher ones; units with a public face (an index.ts) are imported only through it from outside.
 */
const { S, W, serverLayers, identityOrder, serviceUses, faces } = require('./scripts/layers.cjs')

const alt = (names) => `(${names.join('|')})`
const forbidden = [
  {
    name: 'no-circular',
    comment: 'No file imports itself through others.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  ...serverLayers.slice(0, -1).map((layer, i) => ({
    name: `server-${layer.name}-imports-down`,
    comment: `${layer.name} imports only the layers below it: ${
      serverLayers
        .slice(0, i)
        .map((l) => l.name)
        .join(', ') || 'nothing of Trove'
    }.`,
    severity: 'error',
    from: { path: `^${S}${layer.path}` },
    to: { path: `^${S}${alt(serverLayers.slice(i + 1).map((l) => l.path))}` },
  })),
  ...identityOrder.slice(0, -1).map((rank, i) => ({
    name: `identity-${rank.join('-')}-imports-down`,
    comment: `Inside identity, ${rank.join(' and ')} import only ${identityOrder.slice(0, i).flat().join(', ') || 'no other part'}.`,
    severity: 'error',
    from: { path: `^${S}identity/${alt(rank)}/` },
    to: { path: `^${S}identity/${alt(identityOrder.slice(i + 1).flat())}/` },
  })),
  {
    name: 'identity-parts-apart',
    comment: 'Parts of identity at the same rank do not import each other.',
    severity: 'error',
    from: { path: `^${S}identity/${alt(identityOrder.at(-1))}/` },
    to: { path: `^${S}identity/${alt(identityOrder.at(-1))}/`, pathNot: `^${S}identity/$1/` },
  },
  {
    name: 'format-kit-knows-no-format',
    comment: 'The kit every format shares imports no format and not the registry.',
    severity: 'error',
    from: { path: `^${S}formats/kit/` },
    to: { path: `^${S}formats/`, pathNot: `^${S}formats/kit/` },
  },
  {
    name: 'formats-apart',
    comment: 'A format imports the kit, never another format or the registry: a format is one folder.',
    severity: 'error',
    from: { path: `^${S}formats/(?!kit/)([^/]+)/` },
    to: { path: `^${S}formats/`, pathNot: `^${S}formats/($1|kit)/` },
  },
  ...faces.map((unit) => ({
    name: `through-the-face-of-${unit.replace(/\/$/, '').replace('/', '-')}`,
    comment: `From outside ${unit}, only ${unit}index.ts is imported.`,
    severity: 'error',
    from: { pathNot: `^${S}${unit}` },
    to: { path: `^${S}${unit}`, pathNot: `^${S}${unit}index\\.ts$` },
  })),
  ...Object.entries(serviceUses).map(([service, uses]) => ({
    name: `service-${service}-uses-only-its-ports`,
    comment: `${service} uses ${uses.length ? `only ${uses.join(', ')}` : 'no other service'}.`,
    severity: 'error',
    from: { path: `^${S}services/${service}/` },
    to: { path: `^${S}services/`, pathNot: `^${S}services/${alt([service, ...uses])}/` },
  })),
  {
    name: 'web-features-apart',
    comment: 'A feature imports no other feature; route files in app compose them.',
    severity: 'error',
    from: { path: `^${W}features/([^/]+)/` },
    to: { path: `^${W}features/`, pathNot: `^${W}features/$1/` },
  },
  {
    name: 'web-features-below-app',
    comment: 'Features do not import app.',
    severity: 'error',
    from: { path: `^${W}features/` },
    to: { path: `^${W}app/` },
  },
  {
    name: 'web-shared-below-features',
    comment: 'Shared code (ui, lib) imports no feature and nothing of app.',
    severity: 'error',
    from: { path: `^${W}(ui|lib)/` },
    to: { path: `^${W}(features|app)/` },
  },
]

module.exports = {
  forbidden,
  options: {
    moduleSystems: ['es6'],
    tsPreCompilationDeps: true,
    exclude: { path: '(\\.test\\.tsx?$|/test/|\\.d\\.ts$)' },
    doNotFollow: { path: 'node_modules' },
  },
}
