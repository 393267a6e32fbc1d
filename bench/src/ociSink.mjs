// A registry that stores nothing and checks nothing: pushed bytes are read and dropped, pulls are
// served straight from an OCI layout on disk. Timing a skopeo copy against it tells how fast the
// client itself can go on this machine, so that Trove's figure can be read against the client's.
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'

/** Starts the sink on a free loopback port; `layout` is the OCI layout pulls are served from. */
export function startOciSink(layout) {
  const blobs = path.join(layout, 'blobs', 'sha256')
  const index = JSON.parse(fs.readFileSync(path.join(layout, 'index.json'), 'utf8'))
  const { digest, mediaType } = index.manifests[0]
  const manifest = fs.readFileSync(path.join(blobs, digest.slice('sha256:'.length)))
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sink')
    const p = url.pathname
    const send = (status, headers = {}, body) => {
      res.writeHead(status, { 'content-length': body ? body.length : 0, ...headers })
      res.end(body)
    }
    if (p === '/v2/') return send(200, { 'docker-distribution-api-version': 'registry/2.0' })
    if (p.includes('/manifests/')) {
      if (req.method === 'PUT') return req.resume().on('end', () => send(201))
      return send(
        200,
        { 'content-type': mediaType, 'docker-content-digest': digest },
        req.method === 'HEAD' ? undefined : manifest,
      )
    }
    if (req.method === 'POST' && p.endsWith('/blobs/uploads/')) return send(202, { location: `${p}upload`, range: '0-0' })
    if (req.method === 'PATCH' || (req.method === 'PUT' && p.includes('/blobs/uploads/'))) {
      let size = 0
      req.on('data', (chunk) => {
        size += chunk.length
      })
      req.on('end', () => {
        if (req.method === 'PATCH') return send(202, { location: p, range: `0-${size - 1}` })
        const blob = url.searchParams.get('digest') ?? ''
        send(201, { location: p.replace(/uploads\/.*$/, blob), 'docker-content-digest': blob })
      })
      return
    }
    if (p.includes('/blobs/sha256:')) {
      // Pushes find no blob (all are sent); pulls get the layout's.
      const file = path.join(blobs, p.split('/blobs/sha256:')[1] ?? '')
      if (req.method === 'HEAD' || !fs.existsSync(file)) return send(404)
      res.writeHead(200, { 'content-length': fs.statSync(file).size, 'content-type': 'application/octet-stream' })
      fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res)
      return
    }
    send(404)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      resolve({ host: `127.0.0.1:${port}`, stop: () => new Promise((r) => server.close(r)) })
    }),
  )
}
