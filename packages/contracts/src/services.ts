/**
 * Trove's services, without zod so the console's first screens can import them cheaply.
 * A service is one of Trove's modules; every node runs the modules its TROVE_MODULES lists, and a
 * service is enabled while an Online node beats for it.
 */
export const SERVICE_TYPES = [
  'repository',
  'scanner',
  'distribution',
  'mission-control',
  'insight',
  'pipelines',
  'tracker',
] as const
export type ServiceTypeName = (typeof SERVICE_TYPES)[number]

/** Names people read on the screens. */
export const SERVICE_LABELS: Record<ServiceTypeName, string> = {
  repository: 'Artifact Repository',
  scanner: 'Security Scanner',
  distribution: 'Distribution',
  'mission-control': 'Mission Control',
  insight: 'Insight',
  pipelines: 'Pipelines',
  tracker: 'Tracker',
}

/**
 * The services Trove has a module for, in the order TROVE_MODULES lists them: a node runs those
 * its TROVE_MODULES names, or all of them when it is unset. No module of Trove runs the other
 * service types; a node may still name them (they get a heartbeat, logs and support bundles).
 */
export const MODULE_TYPES = ['repository', 'scanner', 'distribution'] as const satisfies readonly ServiceTypeName[]
export type ModuleType = (typeof MODULE_TYPES)[number]

/** The environment variable that picks a node's modules. */
export const MODULES_VARIABLE = 'TROVE_MODULES'

export const isModuleType = (service: string): service is ModuleType => (MODULE_TYPES as readonly string[]).includes(service)

/**
 * The setting that makes a node run exactly these services: `unset TROVE_MODULES` when they are
 * Trove's modules and nothing else (what an unset variable runs), else `TROVE_MODULES=a,b` in the
 * product's order.
 */
export function modulesSetting(services: readonly string[]): string {
  const wanted = new Set(services)
  if (wanted.size === MODULE_TYPES.length && MODULE_TYPES.every((m) => wanted.has(m))) return `unset ${MODULES_VARIABLE}`
  const rank = (s: string) => {
    const i = (SERVICE_TYPES as readonly string[]).indexOf(s)
    return i < 0 ? SERVICE_TYPES.length : i
  }
  const ordered = [...wanted].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  return `${MODULES_VARIABLE}=${ordered.join(',')}`
}
