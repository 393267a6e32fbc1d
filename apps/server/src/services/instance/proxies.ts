import type { ReverseProxy } from '@trove/contracts/shell'
import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'

type Db = Kysely<Database>

export async function listProxies(db: Db): Promise<ReverseProxy[]> {
  const rows = await db.selectFrom('reverse_proxies').select('config').orderBy('key').execute()
  return rows.map((r) => JSON.parse(r.config) as ReverseProxy)
}

export async function findProxy(db: Db, key: string): Promise<ReverseProxy | undefined> {
  const row = await db.selectFrom('reverse_proxies').select('config').where('key', '=', key).executeTakeFirst()
  return row ? (JSON.parse(row.config) as ReverseProxy) : undefined
}

export async function insertProxy(db: Db, proxy: ReverseProxy): Promise<void> {
  const now = Date.now()
  await db
    .insertInto('reverse_proxies')
    .values({ key: proxy.key, config: JSON.stringify(proxy), created_at: now, updated_at: now })
    .execute()
}

export async function updateProxy(db: Db, key: string, proxy: ReverseProxy): Promise<void> {
  await db
    .updateTable('reverse_proxies')
    .set({ key: proxy.key, config: JSON.stringify(proxy), updated_at: Date.now() })
    .where('key', '=', key)
    .execute()
}

export async function deleteProxy(db: Db, key: string): Promise<boolean> {
  const result = await db.deleteFrom('reverse_proxies').where('key', '=', key).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The name a generated configuration gives the proxy's upstream (nginx) or backend (haproxy). */
export const proxyName = (proxy: ReverseProxy) => `trove_${proxy.key.replace(/[^A-Za-z0-9_]/g, '_')}`

/** Every node the proxy sends to: the upstream URL (or this server) first, then the cluster's other nodes, each once. */
export function proxyNodes(proxy: ReverseProxy, fallbackUpstream: string): { address: string; https: boolean }[] {
  const nodes = new Map<string, boolean>()
  for (const url of [proxy.upstreamUrl || fallbackUpstream, ...(proxy.clusterNodeUrls ?? [])]) {
    const target = new URL(url)
    const https = target.protocol === 'https:'
    const address = `${target.hostname}:${target.port || (https ? '443' : '80')}`
    if (!nodes.has(address)) nodes.set(address, https)
  }
  return [...nodes].map(([address, https]) => ({ address, https }))
}

/**
 * With several nodes, a request a node failed to answer (refused, reset or timed out before any
 * answer: a node killed or gone) moves to the next node. nginx never moves a POST, PUT or PATCH
 * (a write may have happened), and not once it has started answering. Trove's own 502 and 503 are
 * no reason to: it answers them for a remote repository's upstream or an unconfigured mail server,
 * which another node would answer the same way, and counting them would take healthy nodes out.
 */
const FAILOVER = [
  '        proxy_next_upstream error timeout;',
  // A node that is gone without a word (no RST): give up on it in seconds, not nginx's default 60.
  '        proxy_connect_timeout 5s;',
]

/** What each proxied location sends on: the original host and scheme, no buffering of big uploads. */
function proxyLocation(upstream: string, rewrite?: string, failover = false): string {
  return [
    '    location / {',
    ...(rewrite ? [`        ${rewrite}`] : []),
    `        proxy_pass ${upstream};`,
    ...(failover ? FAILOVER : []),
    '        proxy_http_version 1.1;',
    '        proxy_set_header Connection "";',
    '        proxy_set_header Host $http_host;',
    '        proxy_set_header X-Real-IP $remote_addr;',
    '        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '        proxy_set_header X-Forwarded-Proto $scheme;',
    '        proxy_set_header X-Forwarded-Host $http_host;',
    '        proxy_set_header X-Forwarded-Port $server_port;',
    '        proxy_buffering off;',
    '        proxy_request_buffering off;',
    '        proxy_read_timeout 900s;',
    '    }',
  ].join('\n')
}

function listens(proxy: ReverseProxy, httpPort: number, httpsPort: number): string[] {
  const lines: string[] = []
  if (proxy.useHttp) lines.push(`    listen ${httpPort};`)
  if (proxy.useHttps) {
    lines.push(`    listen ${httpsPort} ssl;`)
    lines.push(`    ssl_certificate ${proxy.sslCertificate || '/etc/nginx/ssl/trove.crt'};`)
    lines.push(`    ssl_certificate_key ${proxy.sslKey || '/etc/nginx/ssl/trove.key'};`)
    lines.push('    ssl_protocols TLSv1.2 TLSv1.3;')
  }
  return lines
}

const COMMON = ['    client_max_body_size 0;', '    chunked_transfer_encoding on;', '    location = / { return 302 /ui/; }']

/**
 * An nginx `http`-context configuration that puts nginx in front of Trove: one server for the
 * console, the API and the package clients, and the Docker layout the proxy names (a subdomain per
 * repository, the repository as the first path segment, or one port per repository).
 */
export function nginxConfig(proxy: ReverseProxy, fallbackUpstream: string): string {
  const upstreamName = proxyName(proxy)
  const servers = proxyNodes(proxy, fallbackUpstream).map((node) => node.address)
  const cluster = servers.length > 1
  const upstream = `http://${upstreamName}`
  const out: string[] = [
    `## Trove reverse proxy "${proxy.key}" (${proxy.dockerReverseProxyMethod})`,
    '## Put this file in /etc/nginx/conf.d/ and reload nginx.',
    '',
    `upstream ${upstreamName} {`,
    // Each request to the node with the fewest in flight (see haproxyConfig.ts: balance leastconn).
    ...(cluster ? ['    least_conn;'] : []),
    // Passive health: a node that fails a request is left out for 10 s, then tried again.
    ...servers.map((server) => `    server ${server}${cluster ? ' max_fails=1 fail_timeout=10s' : ''};`),
    '    keepalive 32;',
    '}',
    '',
    'server {',
    ...listens(proxy, proxy.httpPort, proxy.httpsPort),
    proxy.dockerReverseProxyMethod === 'SUBDOMAIN'
      ? `    server_name ${proxy.serverName} ~^(?<repo>[A-Za-z0-9._-]+)\\.${escapeRegex(proxy.serverName)}$;`
      : `    server_name ${proxy.serverName};`,
    ...COMMON,
    // With a subdomain per repository, /v2/<image> on repo.host means /v2/repo/<image> to Trove.
    proxyLocation(
      upstream,
      proxy.dockerReverseProxyMethod === 'SUBDOMAIN' ? 'if ($repo) { rewrite ^/v2/(.+)$ /v2/$repo/$1 break; }' : undefined,
      cluster,
    ),
    '}',
  ]
  if (proxy.dockerReverseProxyMethod === 'PORTPERREPO') {
    for (const repo of proxy.reverseProxyRepositories) {
      if (!repo.serverPort) continue
      out.push(
        '',
        `## Docker repository ${repo.repoKey} on its own port`,
        'server {',
        `    listen ${repo.serverPort};`,
        `    server_name ${proxy.serverName};`,
        '    client_max_body_size 0;',
        '    chunked_transfer_encoding on;',
        proxyLocation(upstream, `rewrite ^/v2/(.+)$ /v2/${repo.repoKey}/$1 break;`, cluster),
        '}',
      )
    }
  }
  return `${out.join('\n')}\n`
}
