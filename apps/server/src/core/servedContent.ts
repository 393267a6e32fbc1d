/**
 * How stored content leaves Trove so that a browser never runs it as the console. A file in a
 * repository is someone's upload: served from the console's origin and rendered inline, an HTML,
 * SVG or XHTML file (or a script it loads) would run with the console's cookies and CSRF token.
 *
 * Three layers, each enough alone for a top-level visit:
 * - every answer that is not one of Trove's own pages carries `FILE_CSP` (sandbox: an opaque
 *   origin, no script, no plugin, no form), set by securityHeaders for every request;
 * - a stored file whose type a browser would render actively goes out as an attachment
 *   (`dispositionOf`): only types that cannot carry script are shown inline;
 * - `nosniff` on every answer, so a `text/plain` file holding HTML stays text.
 * And the console's own page allows scripts only from its own folders (`pageCsp`), so an uploaded
 * .js cannot be loaded into it by a `<script src>` even where markup got in.
 */

/** The policy of every answer that is not a Trove page: a document rendered from it is sandboxed. */
export const FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'"

/**
 * The policy of content served on the download origin (TROVE_DOWNLOAD_BASE_URL), for those who
 * view HTML reports inline: their scripts run, sandboxed in an opaque origin, on a host that never
 * gets the console's cookies.
 */
export const DOWNLOAD_ORIGIN_CSP = "sandbox allow-scripts allow-popups allow-downloads; frame-ancestors 'none'"

/**
 * Types a browser shows without running anything: with nosniff, these render as text, an image
 * or media, or a JSON viewer. Everything else (HTML, XHTML, SVG, XML, JavaScript, PDF, Flash,
 * octet-stream, anything unknown) is an attachment.
 */
const INLINE_TYPES = new Set([
  'text/plain',
  'text/csv',
  'application/json',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'video/mp4',
  'video/webm',
  'video/ogg',
])

/** The MIME type without its parameters, lower-cased: `Text/HTML; charset=x` → `text/html`. */
export function essenceOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase()
}

/** True when a browser may show content of this type inline without running anything in it. */
export function rendersInert(contentType: string): boolean {
  // A browser reads `a,b` as its last type: a list is never taken as the inert one it starts with.
  return !contentType.includes(',') && INLINE_TYPES.has(essenceOf(contentType))
}

/** `attachment; filename*=UTF-8''…` for a file's name (any character, encoded). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/** The Content-Disposition a stored file goes out with: inline only for inert types. */
export function dispositionOf(contentType: string, name: string): string {
  return rendersInert(contentType) ? 'inline' : attachment(name)
}

/**
 * Where the pages' scripts live: the console's built chunks, console plugins and the demo
 * plugins (docs/console-plugins.md), the API reference's and GraphiQL's own files. Never all of
 * /ui/: the console's API is under it too, and its download call sends stored files.
 */
export const CONSOLE_SCRIPT_FOLDERS = [
  '/ui/assets/',
  '/ui/plugins/',
  '/ui/demo/',
  '/api/docs/static/',
  '/metadata/api/v1/graphiql/',
]

/**
 * The console's page policy: scripts only from the console's own folder on its own host (built
 * chunks, plugins), never from a repository path of the same origin. The hosts are written
 * without a scheme, so the page's own scheme applies (https behind a proxy that ends TLS).
 */
export function pageCsp(hosts: string[]): string {
  const scripts = hosts.flatMap((h) => CONSOLE_SCRIPT_FOLDERS.map((folder) => `${h}${folder}`))
  return [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'self'",
    "img-src 'self' data: blob:",
    "object-src 'none'",
    `script-src ${scripts.join(' ')}`,
    "script-src-attr 'none'",
    // Mantine sets CSS variables in a style element; the API reference styles inline.
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
  ].join(';')
}
