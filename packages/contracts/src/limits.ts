/** Business constants and limits of the specification (shell §9, operations §9). */
export const Limits = {
  postLoginPathLifetimeMs: 8 * 60 * 60 * 1000,
  postLoginPathFallback: '/',
  chunkScriptTimeoutMs: 120_000,
  microfrontendMountLimitMs: 100_000,
  microfrontendCacheTtlMs: 7 * 24 * 60 * 60 * 1000,
  idleThresholdMs: 60_000,
  uploadLimitBytes: 13 * 1024 * 1024,
  uploadExtension: 'json',
  toastContactMs: 5000,
  toastMs: 4500,
  notificationMs: 3000,
  defaultPageSize: 100,
  projectKeyMaxLength: 128,
  xrayPaginatedRows: 20,
  supportBundleRefreshMs: 3000,
  retentionMaxAttempts: 3,
  uptimeMaxUnits: 2,
  integrationFilterDebounceMs: 300,
  integrationSideFilterWidthPx: 314,
  integrationDefaultIconScale: 1,
  /** Catalogue items sort by rank, 1 (first) to 10; an item without one takes the default. */
  integrationRankMin: 1,
  integrationRankMax: 10,
  integrationDefaultRank: 10,
  walkThroughModalWidthPx: 420,
} as const

/** Trove's password rule (the spec leaves it open). Kept here, zod-free, for the console. */
export const PASSWORD_MIN_LENGTH = 8

/** The CLI login shows the last this-many characters of its session as the code to compare. */
export const CLI_CODE_LENGTH = 4
