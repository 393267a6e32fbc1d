import type { Kysely } from 'kysely'
import { autoId } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // Content-addressed blobs: one row (and one file under blobs/ab/cd/<sha256>) per content.
  await db.schema
    .createTable('blobs')
    .addColumn('sha256', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Written on every store: the GC spares blobs touched recently, whose rows may not be committed yet.
    .addColumn('touched_at', 'bigint', (c) => c.notNull())
    .execute()

  // Repositories: local, remote and virtual, of one package type each.
  await db.schema
    .createTable('repositories')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('rclass', 'varchar(16)', (c) => c.notNull())
    .addColumn('package_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('description', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('includes_pattern', 'varchar(1024)', (c) => c.notNull().defaultTo('**/*'))
    .addColumn('excludes_pattern', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    // remote
    .addColumn('url', 'varchar(2048)')
    .addColumn('username', 'varchar(255)')
    .addColumn('password_sealed', 'text')
    .addColumn('offline', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('metadata_cache_secs', 'integer', (c) => c.notNull().defaultTo(600))
    .addColumn('artifact_cache_secs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('missed_cache_secs', 'integer', (c) => c.notNull().defaultTo(1800))
    // virtual
    .addColumn('default_deployment_repo', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('repository_members')
    .addColumn('virtual_key', 'varchar(64)', (c) => c.notNull().references('repositories.key').onDelete('cascade'))
    .addColumn('member_key', 'varchar(64)', (c) => c.notNull().references('repositories.key').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('repository_members_pk', ['virtual_key', 'member_key'])
    .execute()

  // Packages across repositories (id `<type>://<name>`), their versions per repository, and files.
  await db.schema
    .createTable('packages')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('package_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('lowercase_name', 'varchar(512)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('latest_version', 'varchar(255)')
    .addColumn('downloads', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('packages_type_name', ['package_type', 'name'])
    .execute()
  await db.schema.createIndex('packages_lowercase_name').on('packages').column('lowercase_name').execute()
  await db.schema
    .createTable('package_tags')
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id').onDelete('cascade'))
    .addColumn('tag', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_tags_pk', ['package_id', 'tag'])
    .execute()
  await db.schema.createIndex('package_tags_tag').on('package_tags').column('tag').execute()
  await db.schema
    .createTable('package_versions')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id').onDelete('cascade'))
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull().references('repositories.key').onDelete('cascade'))
    .addColumn('version', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('readme', 'text')
    // JSON arrays: licence names as the package declares them; keywords.
    .addColumn('licenses', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('download_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('deprecated', 'text')
    // JSON: what the format needs to answer its clients (an npm version manifest, a POM's coordinates…).
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_by', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('package_versions_repo_version', ['package_id', 'repo_key', 'version'])
    .execute()
  await db.schema.createIndex('package_versions_repo').on('package_versions').column('repo_key').execute()
  await db.schema
    .createTable('package_dependencies')
    .addColumn('version_id', 'integer', (c) => c.notNull().references('package_versions.id').onDelete('cascade'))
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('range', 'varchar(512)', (c) => c.notNull())
    .addColumn('scope', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('package_dependencies_version').on('package_dependencies').column('version_id').execute()

  // Named pointers to a version within one repository (npm dist-tags: latest, next…).
  await db.schema
    .createTable('dist_tags')
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id').onDelete('cascade'))
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull().references('repositories.key').onDelete('cascade'))
    .addColumn('tag', 'varchar(255)', (c) => c.notNull())
    .addColumn('version', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('dist_tags_pk', ['package_id', 'repo_key', 'tag'])
    .execute()

  // Every stored file of a repository by path; those of a package version point at it.
  await db.schema
    .createTable('files')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull().references('repositories.key').onDelete('cascade'))
    .addColumn('path', 'varchar(2048)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('version_id', 'integer', (c) => c.references('package_versions.id').onDelete('set null'))
    .addColumn('lead', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().references('blobs.sha256'))
    .addColumn('mime_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('download_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_downloaded_at', 'bigint')
    .addColumn('created_by', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('files_repo_path', ['repo_key', 'path'])
    .execute()
  await db.schema.createIndex('files_version').on('files').column('version_id').execute()
  await db.schema.createIndex('files_sha256').on('files').column('sha256').execute()
  await db.schema
    .createTable('file_properties')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'varchar(4000)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('file_properties_file').on('file_properties').column('file_id').execute()

  // What a remote repository fetched that is not a file of a package (npm packuments, index pages),
  // and when: answers within the metadata cache lifetime come from here.
  await db.schema
    .createTable('remote_cache')
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull().references('repositories.key').onDelete('cascade'))
    .addColumn('path', 'varchar(2048)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.references('blobs.sha256'))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)')
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('remote_cache_pk', ['repo_key', 'path'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'remote_cache',
    'file_properties',
    'files',
    'dist_tags',
    'package_dependencies',
    'package_versions',
    'package_tags',
    'packages',
    'repository_members',
    'repositories',
    'blobs',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
