import { z } from 'zod'
import { ARTIFACTS_BROWSE_PATH, ARTIFACTS_DEFAULT_TREE } from './searchConstants.js'

/**
 * The Builds screens' calls (`/ui/builds/…` in the console). Paths are relative to
 * CONSOLE_API_BASE (`/ui/api/v1`), like every console call; names and numbers are URL-encoded
 * path segments. The spec names no call for these screens: docs/decisions.md, "Builds".
 */
const seg = encodeURIComponent
export const BUILDS_PATHS = {
  /** GET: every build the caller may read, with its last run. */
  list: '/ui/builds',
  /** GET: the runs of one build, newest first. */
  runs: (name: string) => `/ui/builds/${seg(name)}`,
  /** GET: one run (modules with file links, environment, properties, the document); DELETE: removes it. */
  run: (name: string, number: string) => `/ui/builds/${seg(name)}/${seg(number)}`,
  /** GET: what changed from run `base` to run `number`. */
  diff: (name: string, number: string, base: string) => `/ui/builds/${seg(name)}/${seg(number)}/diff/${seg(base)}`,
} as const

/** Longest build name and number (the `builds` table's columns; PUT /api/build takes no longer). */
export const BUILD_NAME_MAX = 255

/** The prefix build-info tools give environment variables among a document's `properties`. */
export const BUILD_ENV_PREFIX = 'buildInfo.env.'

/** Texts of the Builds screens (Trove's own: the spec quotes none for them). */
export const BuildTexts = {
  noBuilds: 'No builds yet. CI tools publish build info with PUT /api/build.',
  noMatchingBuilds: 'No build matches the filter.',
  noStatus: '—',
  deleteRunTitle: 'Delete build run',
  deleteRunBody: 'The run and its build info are deleted; the files it produced stay where they are. This cannot be undone.',
  pickTwoRuns: 'Select two runs to compare them.',
  noDifferences: 'The two runs produced and used the same files.',
} as const

/** The console's link to a stored file in the artifact tree: `/artifacts/browse/tree/General/{repoKey}/{path}`. */
export const artifactTreePath = (repoKey: string, path: string) =>
  `${ARTIFACTS_BROWSE_PATH}${ARTIFACTS_DEFAULT_TREE}/${[repoKey, ...path.split('/')].map(seg).join('/')}`

const BuildName = z.string().trim().min(1).max(BUILD_NAME_MAX, `at most ${BUILD_NAME_MAX} characters`)

export const BuildParams = z.object({ name: BuildName })
export const BuildRunParams = z.object({ name: BuildName, number: BuildName })
export const BuildDiffParams = z.object({ name: BuildName, number: BuildName, base: BuildName })

/** DELETE /api/build/{name}?buildNumbers=1,2 (or ?deleteAll=1): the widespread layout scripts use. */
export const BuildDeleteQuery = z.object({
  buildNumbers: z.string().max(16_384).optional(),
  deleteAll: z.enum(['0', '1', 'true', 'false']).optional(),
})

/** One build in the list: its last run (by start time). `status` is null when nothing gave one. */
export const BuildSummary = z
  .object({
    name: z.string(),
    lastNumber: z.string(),
    lastStarted: z.string(),
    status: z.string().nullable(),
    runs: z.number().int(),
  })
  .meta({ id: 'BuildSummary' })
export type BuildSummary = z.infer<typeof BuildSummary>
export const BuildListResponse = z.object({ builds: z.array(BuildSummary) }).meta({ id: 'BuildListResponse' })
export type BuildListResponse = z.infer<typeof BuildListResponse>

export const BuildRunSummary = z
  .object({
    number: z.string(),
    started: z.string(),
    agent: z.string().nullable(),
    url: z.string().nullable(),
    publishedBy: z.string().nullable(),
    status: z.string().nullable(),
  })
  .meta({ id: 'BuildRunSummary' })
export type BuildRunSummary = z.infer<typeof BuildRunSummary>
export const BuildRunsResponse = z
  .object({ name: z.string(), canDelete: z.boolean(), runs: z.array(BuildRunSummary) })
  .meta({ id: 'BuildRunsResponse' })
export type BuildRunsResponse = z.infer<typeof BuildRunsResponse>

/** A stored file the caller may read whose content is this item's (matched by sha256, else sha1). */
export const BuildItemFile = z.object({ repoKey: z.string(), path: z.string() })
export type BuildItemFile = z.infer<typeof BuildItemFile>

export const BuildModuleItem = z
  .object({
    name: z.string(),
    type: z.string().nullable(),
    sha1: z.string().nullable(),
    sha256: z.string().nullable(),
    md5: z.string().nullable(),
    scopes: z.array(z.string()),
    file: BuildItemFile.nullable(),
  })
  .meta({ id: 'BuildModuleItem' })
export type BuildModuleItem = z.infer<typeof BuildModuleItem>

export const BuildModule = z
  .object({ id: z.string(), artifacts: z.array(BuildModuleItem), dependencies: z.array(BuildModuleItem) })
  .meta({ id: 'BuildModule' })
export type BuildModule = z.infer<typeof BuildModule>

export const BuildProperty = z.object({ name: z.string(), value: z.string() })
export type BuildProperty = z.infer<typeof BuildProperty>

export const BuildRunResponse = z
  .object({
    name: z.string(),
    number: z.string(),
    started: z.string(),
    durationMillis: z.number().nullable(),
    agent: z.string().nullable(),
    url: z.string().nullable(),
    publishedBy: z.string().nullable(),
    status: z.string().nullable(),
    vcsRevision: z.string().nullable(),
    canDelete: z.boolean(),
    modules: z.array(BuildModule),
    /** `properties` keys starting with `buildInfo.env.`, without that prefix. */
    environment: z.array(BuildProperty),
    /** The other `properties`. */
    properties: z.array(BuildProperty),
    /** The document as published. */
    info: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'BuildRunResponse' })
export type BuildRunResponse = z.infer<typeof BuildRunResponse>

export const BUILD_CHANGES = ['added', 'removed', 'changed'] as const
export type BuildChange = (typeof BUILD_CHANGES)[number]

const Sums = z.object({ sha1: z.string().nullable(), sha256: z.string().nullable() })
export const BuildDiffEntry = z
  .object({
    module: z.string(),
    name: z.string(),
    type: z.string().nullable(),
    change: z.enum(BUILD_CHANGES),
    /** In the base run (null when added). */
    before: Sums.nullable(),
    /** In the compared run (null when removed). */
    after: Sums.nullable(),
  })
  .meta({ id: 'BuildDiffEntry' })
export type BuildDiffEntry = z.infer<typeof BuildDiffEntry>

const RunRef = z.object({ number: z.string(), started: z.string() })
export const BuildDiffResponse = z
  .object({
    name: z.string(),
    /** The run compared against (usually the older one). */
    base: RunRef,
    /** The run whose changes are listed. */
    compared: RunRef,
    artifacts: z.array(BuildDiffEntry),
    dependencies: z.array(BuildDiffEntry),
  })
  .meta({ id: 'BuildDiffResponse' })
export type BuildDiffResponse = z.infer<typeof BuildDiffResponse>
