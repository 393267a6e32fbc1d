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
