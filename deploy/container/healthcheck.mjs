// The image's HEALTHCHECK: GET /api/system/ping on this node (answers OK, logs nothing).
// Exit 0 when it answers 200 within 4 s, 1 otherwise.
const port = process.env.TROVE_PORT || '8080'
const host = !process.env.TROVE_HOST || ['0.0.0.0', '::'].includes(process.env.TROVE_HOST) ? '127.0.0.1' : process.env.TROVE_HOST
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/api/system/ping`
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(4000) })
  process.exit(res.status === 200 ? 0 : 1)
} catch {
  process.exit(1)
}
