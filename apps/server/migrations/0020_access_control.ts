import type { Kysely } from 'kysely'
import { autoId } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('auto_join', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('admin_privileges', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    .execute()
  await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute()

  // A permission target: resources (JSON per kind: names, include and exclude patterns) and grants.
  await db.schema
    .createTable('permission_targets')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('resources', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('permission_grants')
    .addColumn('target_id', 'integer', (c) => c.notNull().references('permission_targets.id').onDelete('cascade'))
    .addColumn('resource_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('grantee_kind', 'varchar(16)', (c) => c.notNull())
    // user or group id; 0 for the anonymous caller
    .addColumn('grantee_id', 'integer', (c) => c.notNull())
    .addColumn('actions', 'varchar(128)', (c) => c.notNull())
    .addPrimaryKeyConstraint('permission_grants_pk', ['target_id', 'resource_kind', 'grantee_kind', 'grantee_id'])
    .execute()
  await db.schema
    .createIndex('permission_grants_grantee')
    .on('permission_grants')
    .columns(['grantee_kind', 'grantee_id'])
    .execute()

  await db.schema
    .createTable('roles')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('actions', 'varchar(128)', (c) => c.notNull())
    .addColumn('capabilities', 'varchar(128)', (c) => c.notNull())
    .addColumn('predefined', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('projects')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('key', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('storage_quota_bytes', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('project_members')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('member_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('member_id', 'integer', (c) => c.notNull())
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'member_kind', 'member_id', 'role_id'])
    .execute()

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'varchar(255)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute()

  const now = Date.now()
  const roles: [string, string, string, string][] = [
    [
      'Project Admin',
      'Manages the project: members, resources and content',
      'read,annotate,deploy,delete,manage',
      'manage_members,manage_resources',
    ],
    ['Developer', 'Reads, deploys and annotates; deletes and overwrites', 'read,annotate,deploy,delete', ''],
    ['Contributor', 'Reads, deploys and annotates', 'read,annotate,deploy', ''],
    ['Viewer', 'Reads', 'read', ''],
  ]
  await db
    .insertInto('roles')
    .values(
      roles.map(([name, description, actions, capabilities]) => ({
        name,
        description,
        type: 'project',
        actions,
        capabilities,
        predefined: 1,
        created_at: now,
      })),
    )
    .execute()
  await db
    .insertInto('projects')
    .values({
      key: 'dflt',
      display_name: 'Default Project',
      description: '',
      storage_quota_bytes: null,
      created_at: now,
      updated_at: now,
    })
    .execute()
  // Users and names of users are case-insensitive elsewhere; lists sort and search by name.
  await db.schema.createIndex('users_created_at').on('users').column('created_at').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_created_at').execute()
  for (const t of [
    'audit_events',
    'project_members',
    'projects',
    'roles',
    'permission_grants',
    'permission_targets',
    'group_members',
    'groups',
  ]) {
    await db.schema.dropTable(t).execute()
  }
}
