/**
 * Shell §5: single-sign-on and OAuth provider URLs are sanitized before use. A link is kept only
 * if it is an absolute http(s) URL or a path on this server ("/…", not "//host"); anything else
 * (javascript:, data:, vbscript:, protocol-relative, control characters) gives null. Zod-free, so
 * the login screen can import it without pulling zod in.
 */
export function sanitizeProviderUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const url = value.trim()
  if (url === '' || url.length > 4096) return null
  // Control characters and backslashes let browsers read a URL differently from a parser.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(url)) return null
  if (url.startsWith('/')) return url.startsWith('//') ? null : url
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null
  if (!parsed.hostname) return null
  return parsed.href
}
