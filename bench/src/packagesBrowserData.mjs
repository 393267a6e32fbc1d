import { createRequire } from 'node:module'
import path from 'node:path'

const Database = createRequire(new URL('../../apps/server/package.json', import.meta.url))('better-sqlite3')

/**
 * A data set for the packages browser, written straight into a migrated SQLite database (the
 * server is stopped): `count` npm packages `pkg-00000` … in one local repository, one version
 * each. A three-digit prefix (`pkg-042`) matches 100 packages, one page of the list.
 */
export function seedPackages(dataDir, count) {
  const db = new Database(path.join(dataDir, 'trove.db'))
  try {
    db.pragma('journal_mode = WAL')
    const now = Date.now()
    const versionColumns = new Set(
      db
        .prepare('PRAGMA table_info(package_versions)')
        .all()
        .map((c) => c.name),
    )
    db.prepare(
      `INSERT OR IGNORE INTO repositories (key, rclass, package_type, created_at, updated_at) VALUES ('npm-bench', 'local', 'npm', ?, ?)`,
    ).run(now, now)
    const pkg = db.prepare(
      `INSERT INTO packages (package_type, name, lowercase_name, description, latest_version, downloads, created_at, modified_at)
       VALUES ('npm', ?, ?, ?, '1.0.0', ?, ?, ?)`,
    )
    const semver = versionColumns.has('semver_key')
    const version = db.prepare(
      `INSERT INTO package_versions (package_id, repo_key, version, description, size, created_at, modified_at${semver ? ', semver_key, release' : ''})
       VALUES (?, 'npm-bench', '1.0.0', ?, 1024, ?, ?${semver ? ", '0000000001.0000000000.0000000000', 1" : ''})`,
    )
    const insert = db.transaction((from, to) => {
      for (let i = from; i < to; i++) {
        const name = `pkg-${String(i).padStart(5, '0')}`
        const description = `Benchmark package number ${i}`
        const at = now - (count - i) * 1000
        const id = pkg.run(name, name, description, i % 997, at, at).lastInsertRowid
        version.run(id, description, at, at)
      }
    })
    for (let from = 0; from < count; from += 10_000) insert(from, Math.min(count, from + 10_000))
  } finally {
    db.close()
  }
}
