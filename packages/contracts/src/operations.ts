import { z } from 'zod'

import { MODULE_TYPES, SERVICE_LABELS, SERVICE_TYPES } from './services.js'

export { MODULE_TYPES, SERVICE_LABELS, SERVICE_TYPES }

/** Operations: nodes and the services they run, the log viewer and support bundles. */
export const ServiceType = z.enum(SERVICE_TYPES)
export type ServiceType = z.infer<typeof ServiceType>

/** The service the log viewer opens on, and after a reset. */
export const DEFAULT_LOG_SERVICE: ServiceType = 'repository'

export const NODE_STATUSES = ['Online', 'Offline'] as const
export const NodeStatus = z.enum(NODE_STATUSES)
export type NodeStatus = z.infer<typeof NodeStatus>

export const MicroService = z.object({
  last_heartbeat: z.number().describe('epoch ms'),
  /** Milliseconds since the node started, or null when the micro-service is not running (Offline). */
  uptime: z.number().nullable(),
})
export type MicroService = z.infer<typeof MicroService>

export const ServiceNode = z
  .object({
    node_id: z.string(),
    service_id: z.string(),
    status: NodeStatus,
    url: z.string(),
    version: z.string(),
    start_time: z.number(),
    micro_services: z.record(z.string(), MicroService),
  })
  .meta({ id: 'ServiceNode' })
export type ServiceNode = z.infer<typeof ServiceNode>

/** GET /system/status/ha: keyed by service type, every node that registered for it. */
export const ServiceStatus = z.record(z.string(), z.object({ nodes: z.array(ServiceNode) })).meta({ id: 'ServiceStatus' })
export type ServiceStatus = z.infer<typeof ServiceStatus>

/** GET /system/status/nodes: one entry per node with the services it runs (the freemium source). */
export const NodeStatusEntry = z.object({
  node_id: z.string(),
  /** The address other nodes reach it at (TROVE_NODE_URL, or where it listens); empty before it listens. */
  url: z.string(),
  status: NodeStatus,
  /** The services it beats for: the modules its TROVE_MODULES names (every module when unset). */
  services: z.array(z.string()),
  last_heartbeat: z.number(),
})
export const NodeStatusList = z.array(NodeStatusEntry).meta({ id: 'NodeStatusList' })
export type NodeStatusList = z.infer<typeof NodeStatusList>

/** What one node last saw of another: the other's heartbeat as read then, and when. */
export const PeerSighting = z.object({
  peerId: z.string(),
  /** The peer's last heartbeat (epoch ms) as the observer read it. */
  peerLastHeartbeat: z.number(),
  /** When the observer read it (epoch ms), on its own heartbeat. */
  observedAt: z.number(),
  /** Online when the peer's heartbeat was fresh at that moment. */
  status: NodeStatus,
})
export type PeerSighting = z.infer<typeof PeerSighting>

export const Peer = z.object({
  nodeId: z.string(),
  url: z.string(),
  version: z.string(),
  status: NodeStatus,
  startedAt: z.number(),
  lastHeartbeat: z.number(),
  heartbeatMs: z.number(),
  services: z.array(z.string()),
  /** The node that answered this call. */
  self: z.boolean(),
  /** What this node last saw of each other node. */
  sees: z.array(PeerSighting),
})
export type Peer = z.infer<typeof Peer>

/** GET /system/status/peers: the cluster's nodes as they see each other (Admin › Monitoring › Peers). */
export const PeerList = z.object({ now: z.number(), nodes: z.array(Peer) }).meta({ id: 'PeerList' })
export type PeerList = z.infer<typeof PeerList>

export const HealthItem = z.object({ service_id: z.string(), node_id: z.string(), state: z.enum(['HEALTHY', 'UNHEALTHY']) })
export const HealthList = z.array(HealthItem).meta({ id: 'HealthList' })
export type HealthItem = z.infer<typeof HealthItem>

export const MicroserviceEnabled = z.object({ enabled: z.boolean(), services: z.array(ServiceType) })
export type MicroserviceEnabled = z.infer<typeof MicroserviceEnabled>

// ---- Log viewer -------------------------------------------------------------------------------

export const LogConfig = z
  .object({
    logs: z.array(z.string()).describe('the log files of this service on that node, current first'),
    selected_log: z.string().nullable(),
    refresh_rate_millis: z.number(),
  })
  .meta({ id: 'LogConfig' })
export type LogConfig = z.infer<typeof LogConfig>

export const LogDataQuery = z.object({
  nodeId: z.string().min(1).max(200).optional(),
  id: z.string().min(1).max(200),
  file_size: z
    .string()
    .regex(/^\d{1,15}$/, 'expected the read position as a whole number of bytes')
    .transform(Number)
    .optional(),
  /** The file identity of the previous answer: a different one means the file was rotated. */
  file_id: z.string().max(100).optional(),
})

export const LogData = z
  .object({
    /** The read position after this answer: send it back as file_size. */
    file_size: z.number(),
    file_id: z.string(),
    log_content: z.string(),
    last_update_modified: z.number(),
    /** Bytes between the client's position and what this answer starts with, left out by the cap. */
    skipped_bytes: z.number(),
    /** The file was rotated since the client's position: this answer reads the new file. */
    rotated: z.boolean(),
  })
  .meta({ id: 'LogData' })
export type LogData = z.infer<typeof LogData>

// ---- Support bundles -------------------------------------------------------------------------

/** Bounds for the thread dump (diagnostic reports): see docs/decisions.md. */
export const THREAD_DUMP_LIMITS = { countMax: 10, intervalMaxMs: 10_000 } as const

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date written YYYY-MM-DD')

export const BundleParameters = z.object({
  configuration: z.boolean().default(true),
  system: z.boolean().default(true),
  logs: z
    .object({ include: z.boolean().default(true), start_date: day.optional(), end_date: day.optional() })
    .default({ include: true })
    .refine((l) => !l.start_date || !l.end_date || l.start_date <= l.end_date, {
      message: 'start_date must not be after end_date',
      path: ['end_date'],
    }),
  thread_dump: z
    .object({
      count: z
        .number({ error: 'expected a whole number' })
        .int('expected a whole number')
        .min(0, 'expected at least 0')
        .max(THREAD_DUMP_LIMITS.countMax, `expected at most ${THREAD_DUMP_LIMITS.countMax}`),
      interval: z
        .number({ error: 'expected a whole number of milliseconds' })
        .int('expected a whole number of milliseconds')
        .min(0, 'expected at least 0')
        .max(THREAD_DUMP_LIMITS.intervalMaxMs, `expected at most ${THREAD_DUMP_LIMITS.intervalMaxMs} ms`),
    })
    .default({ count: 1, interval: 0 }),
})
export type BundleParameters = z.infer<typeof BundleParameters>

export const CreateBundleRequest = z
  .object({
    name: z.string().trim().min(1, 'is required').max(100),
    description: z.string().max(1000).default(''),
    /** Sent by the console; the mission-control path receives it removed (spec §7). */
    service: ServiceType.optional(),
    parameters: BundleParameters.default({
      configuration: true,
      system: true,
      logs: { include: true },
      thread_dump: { count: 1, interval: 0 },
    }),
  })
  .meta({ id: 'CreateBundleRequest' })
export type CreateBundleRequest = z.input<typeof CreateBundleRequest>

export const BUNDLE_STATUSES = ['in_progress', 'success', 'failed'] as const
export const BundleStatus = z.enum(BUNDLE_STATUSES)
export type BundleStatus = z.infer<typeof BundleStatus>

export const SupportBundle = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    service: ServiceType,
    node_id: z.string(),
    create_date: z.number(),
    status: BundleStatus,
    size: z.number().nullable(),
    parameters: BundleParameters,
  })
  .meta({ id: 'SupportBundle' })
export type SupportBundle = z.infer<typeof SupportBundle>

export const BundleList = z.array(SupportBundle).meta({ id: 'BundleList' })

/** The per-service create path of each service, under /ui/api/v1 (spec §7). */
export const BUNDLE_CREATE_PATHS: Record<ServiceType, string | null> = {
  repository: 'ui/userSupport/generateBundle',
  distribution: 'distribution/api/v1/system/support/bundle',
  scanner: 'xray/api/v1/system/support/bundle',
  'mission-control': 'mc/api/v1/system/support/bundle',
  insight: 'insight/api/v1/system/support/bundle',
  tracker: 'tracker/api/v3/pdn/system/support/bundle',
  pipelines: null,
}

/** The prefix each service's log calls live under, below /ui/api/v1 (spec §7 base paths). */
export const LOG_BASE_PATHS: Record<ServiceType, string> = {
  repository: '',
  scanner: '',
  pipelines: '',
  tracker: '',
  insight: 'insight/api/v2/',
  'mission-control': 'mc/api/ui/v1/',
  distribution: 'distribution/api/ui/',
}

export const RetentionStatus = z.object({ enable: z.boolean() }).meta({ id: 'RetentionStatus' })
export type RetentionStatus = z.infer<typeof RetentionStatus>
