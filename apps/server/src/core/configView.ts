import type { Config, S3Settings } from './config.js'

/**
 * The configuration as it may be shown (support bundles, the admin's diagnostics): an allow-list.
 * Every field of Config, nested ones included, has an entry here, so a field added to Config does
 * not compile until someone decides how it shows. Secret fields show only whether they are set (`***`), never their
 * value in any form (text, bytes, hex, base64); a URL shows without its credentials.
 */
export const REDACTED = '***'

type View<T> = { [K in keyof Required<T>]: (value: T[K]) => unknown }

const shown = <T>(value: T) => value
const secret = (value: unknown) => (value === undefined || value === null || value === '' ? null : REDACTED)

/** A URL without its user info and query (a database URL's password, a presigned signature). */
export function urlWithoutCredentials(value: string | undefined): string | null {
  if (!value) return null
  try {
    const url = new URL(value)
    if (url.username || url.password) {
      url.username = url.username ? REDACTED : ''
      url.password = url.password ? REDACTED : ''
    }
    url.search = ''
    return url.toString()
  } catch {
    return REDACTED
  }
}

const s3View: View<S3Settings> = {
  bucket: shown,
  prefix: shown,
  endpoint: (v) => urlWithoutCredentials(v),
  region: shown,
  accessKeyId: secret,
  secretAccessKey: secret,
  forcePathStyle: shown,
  presignAboveBytes: shown,
}

/** A nested object whose every field is decided too: shown as it is, field by field. */
const all =
  <T extends object>(fields: { [K in keyof Required<T>]: true }) =>
  (value: T) =>
    Object.fromEntries(Object.keys(fields).map((k) => [k, value[k as keyof T]]))

const configView: View<Config> = {
  port: shown,
  host: shown,
  dataDir: shown,
  databaseUrl: (v) => urlWithoutCredentials(v),
  masterKey: secret,
  baseUrl: (v) => urlWithoutCredentials(v),
  downloadBaseUrl: (v) => urlWithoutCredentials(v),
  adminPassword: secret,
  serverName: shown,
  log: all<Config['log']>({ level: true, stdout: true, maxSize: true, maxFiles: true, dir: true }),
  webDir: shown,
  trustProxy: shown,
  shutdownTimeoutMs: shown,
  node: (v) => applyView<Config['node']>({ id: shown, url: urlWithoutCredentials, modules: shown, heartbeatMs: shown }, v),
  workers: all<Config['workers']>({ count: true, index: true }),
  repositories: (v) =>
    applyView<Config['repositories']>(
      {
        uploadMaxBytes: shown,
        archiveMaxExpandedBytes: shown,
        blobGcIntervalS: shown,
        packagesCacheMs: shown,
        s3: (s3) => (s3 ? applyView(s3View, s3) : null),
      },
      v,
    ),
  distribution: all<Config['distribution']>({ pollMs: true }),
  scanner: all<Config['scanner']>({ pollMs: true, maxUploadBytes: true }),
  integrations: all<Config['integrations']>({ gitRetestIntervalS: true, gitBinary: true, gitRefreshIntervalS: true }),
  faults: all<Config['faults']>({ crashAt: true, crashTrace: true }),
  instance: all<Config['instance']>({ flavour: true, deployment: true, features: true }),
}

function applyView<T extends object>(view: View<T>, value: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(view).map(([k, show]) => [k, (show as (v: unknown) => unknown)(value[k as keyof T])]))
}

/** The configuration through the allow-list. */
export function viewOfConfig(config: Config): Record<string, unknown> {
  return applyView(configView, config)
}

/**
 * Settings kept in the database that may be shown as they are. Any other setting shows by its key
 * only: sealed secrets (mail password, SSO client secrets, signing keys) live in settings too.
 */
const SHOWN_SETTINGS = new Set([
  'access.version',
  'instance.flavour',
  'instance.deployment',
  'instance.features',
  'general.config',
  'security.uiAccessBlocked',
  'security.anonymousAccess',
  'security.mfaRequired',
  'security.passwordExpiryDays',
  'security.selfRegistration',
  'security.loginScreen',
  'security.saml',
  'subscription.blockedUsages',
  'bundles.retention',
  'bundles.retentionEnabled',
  'scanner.feed',
  'shell.accountPortalUrl',
])

/** The settings rows through the allow-list: a value shown only where its key is known to be safe. */
export function viewOfSettings(rows: { key: string; value: string }[]): Record<string, unknown> {
  return Object.fromEntries(
    rows.map((r) => [r.key, SHOWN_SETTINGS.has(r.key) ? stripSecrets(JSON.parse(r.value)) : '(not shown)']),
  )
}

/** Whatever a shown setting holds, no byte strings and no credentials in URLs. */
function stripSecrets(value: unknown): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'string') return /^[a-z][\w+.-]*:\/\//i.test(value) ? urlWithoutCredentials(value) : value
  if (Array.isArray(value)) return value.map(stripSecrets)
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripSecrets(v)]))
  return REDACTED
}
