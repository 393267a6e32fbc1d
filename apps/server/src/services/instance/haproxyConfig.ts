import net from 'node:net'
import type { ReverseProxy } from '@trove/contracts/shell'
import { escapeRegex, proxyName, proxyNodes } from './proxies.js'

/**
 * With several nodes, the haproxy form of the nginx generator's FAILOVER rules. A request moves to
 * another node (`option redispatch 1`: every retry picks another server) only when the node it was
 * sent to cannot have acted on it:
 * - `conn-failure`: the connection or its TLS handshake failed, so the request was never sent; any
 *   method may move.
 * - `empty-response`: the node closed the connection without a byte of answer (killed, or a
 *   keep-alive connection it had just closed). A GET or HEAD is moved; any other method is not
 *   (`disable-l7-retry`), since the node may have done the write before it went: the client gets a
 *   502 and decides, as nginx never moves a POST, PUT or PATCH it has sent.
 * Not `response-timeout`: a slow GET (a remote repository fetching a big file from its upstream)
 * would start again on a second node. Not 502 or 503: Trove answers them for a remote repository's
 * upstream or an unconfigured mail server, which another node would answer the same way, and
 * counting them would take healthy nodes out. haproxy only repeats a request that fits in one
 * buffer, so a big upload is never sent twice whatever the method.
 * A node is left out at its first failed connection (`observe layer4`, like nginx's max_fails=1)
 * or after two failed checks of GET /api/system/ping, and back after two good ones.
 */
const FAILOVER = [
  '    default-server check inter 2s fall 2 rise 2 observe layer4 error-limit 1 on-error mark-down',
  '    retries 2',
  '    option redispatch 1',
  '    retry-on conn-failure empty-response',
  '    http-request disable-l7-retry if !METH_GET',
]

/**
 * An haproxy configuration (2.6 or later: Debian 12's) that puts haproxy in front of Trove, the
 * same as nginxConfig does for nginx: the headers, the streamed bodies without a size
 * limit, the Docker layout the proxy names, and one backend with every node of the cluster. It
 * holds a defaults section, one frontend and one backend, and goes below the global section of
 * haproxy.cfg.
 */
export function haproxyConfig(proxy: ReverseProxy, fallbackUpstream: string): string {
  const name = proxyName(proxy)
  const nodes = proxyNodes(proxy, fallbackUpstream)
  const cluster = nodes.length > 1
  const pem = proxy.sslCertificate || '/etc/haproxy/certs/trove.pem'
  const repoPorts =
    proxy.dockerReverseProxyMethod === 'PORTPERREPO' ? proxy.reverseProxyRepositories.filter((r) => r.serverPort) : []
  const host = escapeRegex(proxy.serverName.toLowerCase())
  const out: string[] = [
    `# Trove reverse proxy "${proxy.key}" (${proxy.dockerReverseProxyMethod}) for haproxy 2.6 or later`,
    '# Append this to /etc/haproxy/haproxy.cfg (below its global section), check it with',
    '# haproxy -c -f /etc/haproxy/haproxy.cfg and reload haproxy.',
    ...(proxy.useHttps
      ? [`# ${pem}: the certificate, its chain and its key in one file (cat trove.crt trove.key > trove.pem).`]
      : []),
    '',
    // A defaults section applies to the sections after it, so those of haproxy.cfg above stay as they are.
    'defaults',
    '    mode http',
    '    log global',
    '    option httplog',
    '    timeout connect 5s',
    '    timeout http-request 60s',
    '    timeout http-keep-alive 10s',
    // Bodies stream through, whatever their size; these only bound a silence in both directions
    // (nginx: proxy_read_timeout 900s), so an upload of several GB goes through as long as it moves.
    '    timeout client 900s',
    '    timeout server 900s',
    '',
    // haproxy has no server_name: the frontend answers any host name on its ports, as nginx's only
    // server does. The server name matters for the Docker subdomains.
    `frontend ${name}`,
    ...(proxy.useHttp ? [`    bind :${proxy.httpPort}`] : []),
    ...(proxy.useHttps ? [`    bind :${proxy.httpsPort} ssl crt ${pem} ssl-min-ver TLSv1.2`] : []),
    ...repoPorts.map((r) => `    bind :${r.serverPort} # Docker repository ${r.repoKey}`),
    '    option forwardfor',
    '    http-request set-header X-Real-IP %[src]',
    '    http-request set-header X-Forwarded-Proto https if { ssl_fc }',
    '    http-request set-header X-Forwarded-Proto http if !{ ssl_fc }',
    '    http-request set-header X-Forwarded-Host %[req.hdr(host)]',
    '    http-request set-header X-Forwarded-Port %[dst_port]',
  ]
  if (proxy.dockerReverseProxyMethod === 'SUBDOMAIN') {
    out.push(
      '    # A subdomain per repository: /v2/<image> on <repo>.<server name> is /v2/<repo>/<image> to Trove.',
      `    acl docker_repo_host req.hdr(host),host_only,lower -m reg ^[a-z0-9._-]+\\.${host}$`,
      `    http-request set-var(req.docker_repo) 'req.hdr(host),host_only,lower,regsub("\\.${host}$","")' if docker_repo_host`,
      '    http-request replace-path ^/v2/(.+)$ /v2/%[var(req.docker_repo)]/\\1 if docker_repo_host',
    )
  }
  for (const repo of repoPorts) {
    out.push(`    http-request replace-path ^/v2/(.+)$ /v2/${repo.repoKey}/\\1 if { dst_port ${repo.serverPort} }`)
  }
  out.push(
    '    http-request redirect location /ui/ code 302 if { path / }',
    `    default_backend ${name}`,
    '',
    `backend ${name}`,
    // Each request to the node with the fewest in flight: requests last from a millisecond (a
    // packument) to minutes (a large layer), and a node held up (a pause, a busy core) gets fewer
    // meanwhile, where round robin kept sending it its share while the others waited idle.
    '    balance leastconn',
    '    option httpchk GET /api/system/ping',
    '    http-check expect status 200',
    ...(cluster ? FAILOVER : ['    default-server check inter 2s fall 2 rise 2']),
    ...nodes.map((node, i) => {
      const hostname = node.address.replace(/:\d+$/, '')
      const sni = net.isIP(hostname) ? '' : ` sni str(${hostname}) check-sni ${hostname}`
      const tls = node.https ? ` ssl verify required ca-file @system-ca${sni}` : ''
      return `    server node${i + 1} ${node.address}${tls}`
    }),
  )
  return `${out.join('\n')}\n`
}
