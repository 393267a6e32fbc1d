/** The simple repository API's two forms: PEP 503 HTML and PEP 691 JSON, chosen by the Accept header. */

export const JSON_V1 = 'application/vnd.pypi.simple.v1+json'
export const HTML_V1 = 'application/vnd.pypi.simple.v1+html'
/** The version of the simple API answered (1.1: PEP 700's versions, size and upload-time). */
export const API_VERSION = '1.1'

export interface Negotiated {
  form: 'json' | 'html'
  contentType: string
}

const SUPPORTED: Record<string, Negotiated> = {
  [JSON_V1]: { form: 'json', contentType: JSON_V1 },
  'application/vnd.pypi.simple.latest+json': { form: 'json', contentType: JSON_V1 },
  [HTML_V1]: { form: 'html', contentType: HTML_V1 },
  'application/vnd.pypi.simple.latest+html': { form: 'html', contentType: HTML_V1 },
  'text/html': { form: 'html', contentType: 'text/html; charset=utf-8' },
  '*/*': { form: 'html', contentType: 'text/html; charset=utf-8' },
}

/**
 * Picks the form by the Accept header's q-values (the first listed wins a tie), or by PEP 691's
 * optional `?format=` parameter. HTML when nothing supported is asked for: the form every client reads.
 */
export function negotiate(accept: string | undefined, format?: string): Negotiated {
  const html = SUPPORTED['text/html'] as Negotiated
  if (format && SUPPORTED[format]) return SUPPORTED[format] as Negotiated
  if (!accept) return html
  let best: { n: Negotiated; q: number } | undefined
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim())
    const n = SUPPORTED[type.toLowerCase()]
    if (!n) continue
    const qParam = params.find((p) => p.startsWith('q='))
    const q = qParam ? Number(qParam.slice(2)) : 1
    if (!Number.isFinite(q) || q <= 0) continue
    if (!best || q > best.q) best = { n, q }
  }
  return best?.n ?? html
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** One file of a project page, as Trove links it. */
export interface IndexFile {
  filename: string
  /** The absolute URL of the file at this repository (without the hash fragment). */
  url: string
  sha256: string | null
  requiresPython: string | null
  size: number | null
  uploadTime: number | null
  version: string | null
  yanked: boolean | string
  /** sha256 of the file's core metadata served at `<url>.metadata` (PEP 658/714), when there is one. */
  coreMetadata: string | null
}

export function projectPageHtml(name: string, files: IndexFile[]): string {
  const links = files.map((f) => {
    const href = f.sha256 ? `${f.url}#sha256=${f.sha256}` : f.url
    const requires = f.requiresPython ? ` data-requires-python="${escapeHtml(f.requiresPython)}"` : ''
    const yanked = f.yanked === false ? '' : ` data-yanked="${escapeHtml(f.yanked === true ? '' : f.yanked)}"`
    // PEP 714's name only: pip releases that read PEP 658's older name break on some of its forms.
    const metadata = f.coreMetadata ? ` data-core-metadata="sha256=${f.coreMetadata}"` : ''
    return `    <a href="${escapeHtml(href)}"${requires}${metadata}${yanked}>${escapeHtml(f.filename)}</a><br/>`
  })
  return [
    '<!DOCTYPE html>',
    '<html>',
    '  <head>',
    `    <meta name="pypi:repository-version" content="${API_VERSION}">`,
    `    <title>Links for ${escapeHtml(name)}</title>`,
    '  </head>',
    '  <body>',
    `    <h1>Links for ${escapeHtml(name)}</h1>`,
    ...links,
    '  </body>',
    '</html>',
    '',
  ].join('\n')
}

export function projectPageJson(name: string, files: IndexFile[]) {
  const versions = [...new Set(files.map((f) => f.version).filter((v): v is string => Boolean(v)))]
  return {
    meta: { 'api-version': API_VERSION },
    name,
    versions,
    files: files.map((f) => ({
      filename: f.filename,
      url: f.url,
      hashes: f.sha256 ? { sha256: f.sha256 } : {},
      ...(f.requiresPython ? { 'requires-python': f.requiresPython } : {}),
      ...(f.size !== null ? { size: f.size } : {}),
      ...(f.uploadTime !== null ? { 'upload-time': new Date(f.uploadTime).toISOString() } : {}),
      ...(f.coreMetadata ? { 'core-metadata': { sha256: f.coreMetadata } } : {}),
      yanked: f.yanked,
    })),
  }
}

export function projectListHtml(names: string[], pageUrl: string): string {
  const base = pageUrl.endsWith('/') ? pageUrl : `${pageUrl}/`
  return [
    '<!DOCTYPE html>',
    '<html>',
    '  <head>',
    `    <meta name="pypi:repository-version" content="${API_VERSION}">`,
    '    <title>Simple index</title>',
    '  </head>',
    '  <body>',
    ...names.map((n) => `    <a href="${escapeHtml(`${base}${n}/`)}">${escapeHtml(n)}</a><br/>`),
    '  </body>',
    '</html>',
    '',
  ].join('\n')
}

export function projectListJson(names: string[]) {
  return { meta: { 'api-version': API_VERSION }, projects: names.map((name) => ({ name })) }
}

export function notFoundHtml(message: string): string {
  return `<!DOCTYPE html>\n<html>\n  <head><title>404 Not Found</title></head>\n  <body>\n    <h1>404 Not Found</h1>\n    <p>${escapeHtml(message)}</p>\n  </body>\n</html>\n`
}

/** The files of an upstream project page, from either form (a second Trove, pypi.org, any PEP 503 index). */
export function parseProjectPage(
  body: string,
  contentType: string,
  pageUrl: string,
): { filename: string; url: string; sha256: string | null; requiresPython: string | null; yanked: boolean | string }[] {
  if (contentType.includes('json')) {
    const data = JSON.parse(body) as { files?: Record<string, unknown>[] }
    return (data.files ?? []).flatMap((f) => {
      if (typeof f.filename !== 'string' || typeof f.url !== 'string') return []
      const hashes = (f.hashes ?? {}) as Record<string, unknown>
      return [
        {
          filename: f.filename,
          url: new URL(f.url, pageUrl).toString(),
          sha256: typeof hashes.sha256 === 'string' ? hashes.sha256.toLowerCase() : null,
          requiresPython: typeof f['requires-python'] === 'string' ? f['requires-python'] : null,
          yanked: typeof f.yanked === 'string' || typeof f.yanked === 'boolean' ? f.yanked : false,
        },
      ]
    })
  }
  const unescapeHtml = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
  const files: ReturnType<typeof parseProjectPage> = []
  for (const m of body.matchAll(/<a\s([^>]*)>([^<]*)<\/a>/gi)) {
    const attrs = m[1] ?? ''
    const attr = (name: string) => {
      const a = new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(attrs)
      return a ? unescapeHtml(a[1] ?? a[2] ?? '') : undefined
    }
    const href = attr('href')
    if (!href) continue
    const url = new URL(href, pageUrl)
    const sha256 = /^#?sha256=([0-9a-f]{64})$/i.exec(url.hash)?.[1]?.toLowerCase() ?? null
    url.hash = ''
    const yanked = attr('data-yanked')
    files.push({
      filename: unescapeHtml(m[2] ?? '').trim() || decodeURIComponent(url.pathname.split('/').pop() ?? ''),
      url: url.toString(),
      sha256,
      requiresPython: attr('data-requires-python') ?? null,
      yanked: yanked === undefined ? false : yanked || true,
    })
  }
  return files
}
