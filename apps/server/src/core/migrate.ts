import { type Migration, Migrator } from 'kysely'
import * as m0001 from '../../migrations/0001_users_and_sessions.js'
import * as m0002 from '../../migrations/0002_tokens_and_throttling.js'
import * as m0003 from '../../migrations/0003_mfa.js'
import * as m0004 from '../../migrations/0004_password_flows.js'
import * as m0005 from '../../migrations/0005_cli_login.js'
import * as m0006 from '../../migrations/0006_invitations.js'
import * as m0007 from '../../migrations/0007_token_scope.js'
import * as m0010 from '../../migrations/0010_sso.js'
import * as m0020 from '../../migrations/0020_access_control.js'
import * as m0030 from '../../migrations/0030_repositories.js'
import * as m0050 from '../../migrations/0050_operations.js'
import * as m0051 from '../../migrations/0051_node_peers.js'
import * as m0060 from '../../migrations/0060_shell.js'
import * as m0061 from '../../migrations/0061_onboarding.js'
import * as m0070 from '../../migrations/0070_packages.js'
import * as m0071 from '../../migrations/0071_package_versions_name.js'
import * as m0072 from '../../migrations/0072_checksums_later.js'
import * as m0076 from '../../migrations/0076_builds_console.js'
import * as m0080 from '../../migrations/0080_artifact_tree.js'
import * as m0090 from '../../migrations/0090_contact_requests.js'
import * as m0095 from '../../migrations/0095_git_integrations.js'
import * as m0100 from '../../migrations/0100_scanner.js'
import * as m0101 from '../../migrations/0101_scan_policies.js'
import * as m0110 from '../../migrations/0110_release_bundles.js'
import * as m0120 from '../../migrations/0120_debian.js'
import * as m0121 from '../../migrations/0121_cluster_identity.js'
import * as m0130 from '../../migrations/0130_registry_uploads.js'
import * as m0131 from '../../migrations/0131_upload_chunk_digests.js'
import * as m0132 from '../../migrations/0132_package_search.js'
import * as m0133 from '../../migrations/0133_dashboard.js'
import type { Db } from './db.js'

/** Every migration, in order. Names sort in the order they must run. */
const migrations: Record<string, Migration> = {
  '0001_users_and_sessions': m0001,
  '0002_tokens_and_throttling': m0002,
  '0003_mfa': m0003,
  '0004_password_flows': m0004,
  '0005_cli_login': m0005,
  '0006_invitations': m0006,
  '0007_token_scope': m0007,
  '0050_operations': m0050,
  '0010_sso': m0010,
  '0020_access_control': m0020,
  '0030_repositories': m0030,
  '0060_shell': m0060,
  '0061_onboarding': m0061,
  '0070_packages': m0070,
  '0071_package_versions_name': m0071,
  '0072_checksums_later': m0072,
  '0076_builds_console': m0076,
  '0080_artifact_tree': m0080,
  '0090_contact_requests': m0090,
  '0095_git_integrations': m0095,
  '0051_node_peers': m0051,
  '0100_scanner': m0100,
  '0101_scan_policies': m0101,
  '0110_release_bundles': m0110,
  '0120_debian': m0120,
  '0121_cluster_identity': m0121,
  '0130_registry_uploads': m0130,
  '0131_upload_chunk_digests': m0131,
  '0132_package_search': m0132,
  '0133_dashboard': m0133,
}

/** Brings the schema up to date; throws (and changes nothing further) if a migration fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    // Areas number their migrations in their own ranges, so one may land after a higher number ran.
    allowUnorderedMigrations: true,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
