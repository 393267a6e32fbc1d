// The packages data set both packages suites measure on: 100,000 packages and 1,000,000 versions
// (one package, `npm://big-package`, holds 10,000 of them), generated deterministically and
// bulk-inserted into a migrated database with the server stopped — SQLite or PostgreSQL.
import { createRequire } from 'node:module'

const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url))
const { semverKey, isSemverRelease } = await import(
  new URL('../../apps/server/dist/src/storage/semverKey.js', import.meta.url).href
)

export const PACKAGES = 100_000
export const VERSIONS = 1_000_000
export const BIG_VERSIONS = 10_000
const TYPES = ['npm', 'pypi', 'maven', 'docker', 'generic']
const WORDS = (
  'alpha beta gamma delta react vue angular express fastify lodash moment axios chalk commander debug ' +
  'yargs uuid semver glob minimist rimraf mkdirp async bluebird request cheerio dotenv jest mocha chai ' +
  'sinon webpack babel eslint prettier typescript rollup vite esbuild parcel gulp grunt redux mobx zod ' +
  'joi yup ajv pino winston morgan helmet cors passport jsonwebtoken bcrypt sharp jimp canvas three ' +
  'd3 chart plotly leaflet mapbox socket ws graphql apollo prisma kysely knex sequelize mongoose redis ' +
  'kafka rabbit amqp nats grpc protobuf avro thrift zlib tar zip crypto hash fetch http proxy router ' +
  'cache queue worker cron timer logger config parser lexer compiler runtime bundle loader plugin core'
).split(' ')

/** Deterministic pseudo-random numbers, so both databases get the same data set. */
function rng(seed) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** Rows of the data set, in batches (the caller inserts each batch). */
function* dataSet(batchSize) {
  const rand = rng(42)
  const now = Date.UTC(2026, 0, 1)
  // versions per package: the big one 10,000; the rest share the remaining 990,000 (10 or 9 each).
  const rest = VERSIONS - BIG_VERSIONS
  const others = PACKAGES - 1
  const tens = rest - 9 * others
  let pkgs = []
  let versions = []
  let tags = []
  let files = []
  let versionId = 0
  for (let id = 1; id <= PACKAGES; id++) {
    const big = id === 1
    const type = big ? 'npm' : TYPES[id % TYPES.length]
    const name = big
      ? 'big-package'
      : `${WORDS[Math.floor(rand() * WORDS.length)]}-${WORDS[Math.floor(rand() * WORDS.length)]}-${id}`
    const count = big ? BIG_VERSIONS : id - 1 <= tens ? 10 : 9
    const created = now - Math.floor(rand() * 3 * 365 * 86_400_000)
    const repo = `${type}-local`
    let latest = ''
    for (let v = 0; v < count; v++) {
      versionId++
      const version = big ? `${Math.floor(v / 1000)}.${Math.floor(v / 10) % 100}.${v % 10}` : `${v}.${v % 3}.${v % 7}`
      latest = version
      const at = created + v * 3_600_000
      versions.push([versionId, id, repo, version, semverKey(version), isSemverRelease(version) ? 1 : 0, 1234 + v, at])
      if (big) files.push([versionId, repo, `big-package/-/big-package-${version}.tgz`, `big-package-${version}.tgz`])
    }
    pkgs.push([
      id,
      type,
      name,
      name.toLowerCase(),
      `The ${name} package for ${WORDS[id % WORDS.length]}`,
      latest,
      id % 997,
      created,
    ])
    tags.push([id, WORDS[id % WORDS.length]], [id, WORDS[(id * 7) % WORDS.length]])
    if (pkgs.length >= batchSize || id === PACKAGES) {
      yield { pkgs, versions, tags, files }
      pkgs = []
      versions = []
      tags = []
      files = []
    }
  }
}

const BLOB = 'a'.repeat(64)

export async function fillSqlite(dbFile) {
  const SQLite = serverRequire('better-sqlite3')
  const db = new SQLite(dbFile)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const repo = db.prepare(
    "INSERT INTO repositories (key, rclass, package_type, created_at, updated_at) VALUES (?, 'local', ?, 0, 0)",
  )
  const blob = db.prepare('INSERT INTO blobs (sha256, size, md5, sha1, created_at, touched_at) VALUES (?, 1, ?, ?, 0, 0)')
  const pkg = db.prepare(
    'INSERT INTO packages (id, package_type, name, lowercase_name, description, latest_version, downloads, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const ver = db.prepare(
    'INSERT INTO package_versions (id, package_id, repo_key, version, semver_key, release, size, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const tag = db.prepare('INSERT OR IGNORE INTO package_tags (package_id, tag) VALUES (?, ?)')
  const file = db.prepare(
    "INSERT INTO files (repo_key, path, name, version_id, lead, size, md5, sha1, sha256, mime_type, created_at, modified_at) VALUES (?, ?, ?, ?, 1, 1, ?, ?, ?, 'application/gzip', 0, 0)",
  )
  db.transaction(() => {
    for (const t of TYPES) repo.run(`${t}-local`, t)
    blob.run(BLOB, 'b'.repeat(32), 'c'.repeat(40))
  })()
  for (const batch of dataSet(5000)) {
    db.transaction(() => {
      for (const p of batch.pkgs) pkg.run(...p, p[7])
      for (const v of batch.versions) ver.run(...v, v[7])
      for (const t of batch.tags) tag.run(...t)
      for (const f of batch.files) file.run(f[1], f[2], f[3], f[0], 'b'.repeat(32), 'c'.repeat(40), BLOB)
    })()
  }
  db.exec('ANALYZE')
  db.close()
}

export async function fillPostgres(url) {
  const pg = serverRequire('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  for (const t of TYPES) {
    await client.query(
      "INSERT INTO repositories (key, rclass, package_type, created_at, updated_at) VALUES ($1, 'local', $2, 0, 0)",
      [`${t}-local`, t],
    )
  }
  await client.query('INSERT INTO blobs (sha256, size, md5, sha1, created_at, touched_at) VALUES ($1, 1, $2, $3, 0, 0)', [
    BLOB,
    'b'.repeat(32),
    'c'.repeat(40),
  ])
  const cols = (rows, n) => Array.from({ length: n }, (_, i) => rows.map((r) => r[i]))
  for (const batch of dataSet(20_000)) {
    await client.query(
      `INSERT INTO packages (id, package_type, name, lowercase_name, description, latest_version, downloads, created_at, modified_at)
       SELECT a, b, c, d, e, f, g, h, h FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[]) AS t(a, b, c, d, e, f, g, h)`,
      cols(batch.pkgs, 8),
    )
    await client.query(
      `INSERT INTO package_versions (id, package_id, repo_key, version, semver_key, release, size, created_at, modified_at)
       SELECT a, b, c, d, e, f, g, h, h FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::bigint[]) AS t(a, b, c, d, e, f, g, h)`,
      cols(batch.versions, 8),
    )
    await client.query(
      'INSERT INTO package_tags (package_id, tag) SELECT * FROM unnest($1::int[], $2::text[]) ON CONFLICT DO NOTHING',
      cols(batch.tags, 2),
    )
    if (batch.files.length > 0) {
      await client.query(
        `INSERT INTO files (version_id, repo_key, path, name, lead, size, md5, sha1, sha256, mime_type, created_at, modified_at)
         SELECT a, b, c, d, 1, 1, $5, $6, $7, 'application/gzip', 0, 0 FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS t(a, b, c, d)`,
        [...cols(batch.files, 4), 'b'.repeat(32), 'c'.repeat(40), BLOB],
      )
    }
  }
  // Identity columns continue after the inserted ids.
  await client.query("SELECT setval(pg_get_serial_sequence('packages', 'id'), (SELECT max(id) FROM packages))")
  await client.query("SELECT setval(pg_get_serial_sequence('package_versions', 'id'), (SELECT max(id) FROM package_versions))")
  await client.query('VACUUM ANALYZE')
  await client.end()
}
