import { z } from 'zod'

/** GET /ui/api/v1/ui/dashboard: the Overview screen, from Trove's own aggregates (docs/decisions.md). */

/** Days the charts cover, today included. */
export const DASHBOARD_DAYS = 30
/** Repositories drawn one by one in the storage charts; the rest are summed as "other". */
export const DASHBOARD_REPOSITORIES = 8
export const DASHBOARD_TOP_PACKAGES = 10
export const DASHBOARD_ACTIVITY = 15
export const DASHBOARD_CRITICAL = 5

const day = z.string().describe('YYYY-MM-DD (UTC)')

export const RepositoryUsage = z.object({
  repoKey: z.string(),
  packageType: z.string(),
  rclass: z.string(),
  bytes: z.number(),
  files: z.number(),
  downloads: z.number().describe('ever'),
})
export type RepositoryUsage = z.infer<typeof RepositoryUsage>

/** Bytes stored at the end of a day, in all and per drawn repository (the key "other" for the rest). */
export const StorageDay = z.object({ day, bytes: z.number(), byRepository: z.record(z.string(), z.number()) })
export type StorageDay = z.infer<typeof StorageDay>

export const TrafficDay = z.object({ day, downloads: z.number(), uploads: z.number() })
export type TrafficDay = z.infer<typeof TrafficDay>

export const TopPackage = z.object({
  packageType: z.string(),
  name: z.string(),
  latestVersion: z.string().nullable(),
  downloads: z.number(),
})
export type TopPackage = z.infer<typeof TopPackage>

export const SeverityCounts = z.object({
  critical: z.number(),
  high: z.number(),
  medium: z.number(),
  low: z.number(),
  unknown: z.number(),
})
export type SeverityCounts = z.infer<typeof SeverityCounts>

export const CriticalVersion = z.object({
  packageType: z.string(),
  name: z.string(),
  version: z.string(),
  repoKey: z.string(),
  critical: z.number(),
  scannedAt: z.number().nullable(),
  /** Up to three of the critical advisories found in it */
  advisories: z.array(z.string()),
})
export type CriticalVersion = z.infer<typeof CriticalVersion>

export const ACTIVITY_KINDS = ['publish', 'cache', 'delete', 'signin', 'access'] as const
export const ActivityItem = z.object({
  at: z.number(),
  kind: z.enum(ACTIVITY_KINDS),
  actor: z.string().nullable(),
  repoKey: z.string().nullable(),
  packageType: z.string().nullable(),
  name: z.string().nullable(),
  version: z.string().nullable(),
  /** An access change's audit action (permission.update…) and what it changed */
  action: z.string().nullable(),
  target: z.string().nullable(),
})
export type ActivityItem = z.infer<typeof ActivityItem>

export const NodeHealth = z.object({
  nodeId: z.string(),
  status: z.enum(['Online', 'Offline']),
  services: z.array(z.string()),
  lastHeartbeat: z.number(),
})
export type NodeHealth = z.infer<typeof NodeHealth>

export const Dashboard = z
  .object({
    /** instance: an administrator's view of everything; readable: the repositories the caller may read */
    scope: z.enum(['instance', 'readable']),
    generatedAt: z.number(),
    totals: z.object({
      repositories: z.number(),
      files: z.number(),
      bytes: z.number(),
      downloads: z.number().describe(`in the last ${DASHBOARD_DAYS} days`),
      uploads: z.number().describe(`in the last ${DASHBOARD_DAYS} days`),
    }),
    /** The largest repositories, largest first */
    repositories: z.array(RepositoryUsage),
    storage: z.array(StorageDay),
    traffic: z.array(TrafficDay),
    topPackages: z.array(TopPackage),
    /** null when no node runs the scanner */
    vulnerabilities: z.object({ counts: SeverityCounts, newestCritical: z.array(CriticalVersion) }).nullable(),
    activity: z.array(ActivityItem),
    /** null for callers who are not administrators */
    nodes: z.array(NodeHealth).nullable(),
  })
  .meta({ id: 'Dashboard' })
export type Dashboard = z.infer<typeof Dashboard>
