import { type Kysely, sql } from 'kysely'
import { isSqlite } from './portable.js'

/**
 * Package search by any part of a name, scope, description or keyword, through an index.
 *
 * SQLite: an FTS5 table with the trigram tokenizer (rowid = the package's id), kept by triggers on
 * `packages` and `package_tags`, so every write path (publishes, deletes, a repository's removal,
 * a format deriving its packages again) keeps it current without knowing of it.
 * PostgreSQL: pg_trgm GIN indexes on the lowercased name, description and tag; LIKE '%…%' walks
 * them, and the table itself stays the only copy.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`CREATE VIRTUAL TABLE package_search USING fts5(name, description, tags, tokenize = 'trigram')`.execute(db)
    const tagsOf = (id: string) =>
      `coalesce((SELECT group_concat(t.tag, char(10)) FROM package_tags t WHERE t.package_id = ${id}), '')`
    await sql
      .raw(
        `INSERT INTO package_search (rowid, name, description, tags)
         SELECT p.id, p.lowercase_name, p.description, ${tagsOf('p.id')} FROM packages p`,
      )
      .execute(db)
    const triggers = [
      `CREATE TRIGGER package_search_insert AFTER INSERT ON packages BEGIN
         INSERT INTO package_search (rowid, name, description, tags)
         VALUES (new.id, new.lowercase_name, new.description, ${tagsOf('new.id')});
       END`,
      `CREATE TRIGGER package_search_update AFTER UPDATE OF lowercase_name, description ON packages BEGIN
         UPDATE package_search SET name = new.lowercase_name, description = new.description WHERE rowid = new.id;
       END`,
      `CREATE TRIGGER package_search_delete AFTER DELETE ON packages BEGIN
         DELETE FROM package_search WHERE rowid = old.id;
       END`,
      `CREATE TRIGGER package_search_tag_insert AFTER INSERT ON package_tags BEGIN
         UPDATE package_search SET tags = ${tagsOf('new.package_id')} WHERE rowid = new.package_id;
       END`,
      `CREATE TRIGGER package_search_tag_delete AFTER DELETE ON package_tags BEGIN
         UPDATE package_search SET tags = ${tagsOf('old.package_id')} WHERE rowid = old.package_id;
       END`,
    ]
    for (const trigger of triggers) await sql.raw(trigger).execute(db)
    return
  }
  // A trusted extension since PostgreSQL 13: the database's owner may create it.
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
  await sql`CREATE INDEX packages_name_trgm ON packages USING gin (lowercase_name gin_trgm_ops)`.execute(db)
  await sql`CREATE INDEX packages_description_trgm ON packages USING gin (lower(description) gin_trgm_ops)`.execute(db)
  await sql`CREATE INDEX package_tags_tag_trgm ON package_tags USING gin (lower(tag) gin_trgm_ops)`.execute(db)
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const t of ['insert', 'update', 'delete', 'tag_insert', 'tag_delete']) {
      await sql.raw(`DROP TRIGGER IF EXISTS package_search_${t}`).execute(db)
    }
    await sql`DROP TABLE IF EXISTS package_search`.execute(db)
    return
  }
  for (const index of ['packages_name_trgm', 'packages_description_trgm', 'package_tags_tag_trgm']) {
    await db.schema.dropIndex(index).ifExists().execute()
  }
}
