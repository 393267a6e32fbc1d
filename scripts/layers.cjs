/**
 * The layers of Trove's code, lowest first, and the declared uses between services: the one place
 * they are written. .dependency-cruiser.cjs makes its rules from these lists; scripts/layers.mjs
 * draws docs/architecture.md's diagram from them.
 */
const S = 'apps/server/src/'
const W = 'apps/web/src/'

/** The server's layers, lowest first: each may import only those before it. */
const serverLayers = [
  { name: 'core', path: 'core/', what: 'config, database, blob store, errors, logging, the app context' },
  { name: 'identity', path: 'identity/', what: 'users, sign-in, sessions, SSO, tokens, access control' },
  { name: 'storage', path: 'storage/', what: 'repositories, their files and the artifact tree' },
  { name: 'formats', path: 'formats/', what: 'the kit every format shares, a folder per format, the registry' },
  { name: 'services', path: 'services/', what: 'packages, scanner, distribution, operations, …' },
  { name: 'app', path: '[^/]+\\.ts$', what: 'app.ts wires them; main.ts and commands.ts start it' },
]

/** Inside identity, lowest first: records, then what decides and signs in, then what builds on it. */
const identityOrder = [['users'], ['access'], ['auth'], ['sso'], ['tokens'], ['cliLogin', 'account', 'security']]

/** Each service and the services it uses (through their index.ts): the declared ports between services. */
const serviceUses = {
  builds: [],
  operations: [],
  scanner: ['builds'],
  integrations: ['scanner'],
  packages: ['builds', 'scanner'],
  onboarding: [],
  instance: ['onboarding', 'operations'],
  distribution: ['operations'],
  artifacts: [],
  contact: [],
  console: [],
  system: [],
  dashboard: ['operations', 'scanner'],
}

/** Units imported from outside only through their index.ts. */
const faces = ['identity/', 'formats/', ...Object.keys(serviceUses).map((s) => `services/${s}/`)]

function acyclic(uses) {
  const seen = new Map()
  const visit = (s, trail) => {
    if (seen.get(s) === 'done') return
    if (seen.get(s) === 'open') throw new Error(`serviceUses has a cycle: ${[...trail, s].join(' → ')}`)
    if (!(s in uses)) throw new Error(`serviceUses names an unknown service: ${s}`)
    seen.set(s, 'open')
    for (const t of uses[s]) visit(t, [...trail, s])
    seen.set(s, 'done')
  }
  for (const s of Object.keys(uses)) visit(s, [])
}
acyclic(serviceUses)

module.exports = { S, W, serverLayers, identityOrder, serviceUses, faces }
