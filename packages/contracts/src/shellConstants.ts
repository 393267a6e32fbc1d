/** Plain constants of the shell, without zod, so the console's first page can import them cheaply. */
export type LicenseTypeName = 'N/A' | 'OSS' | 'JCR' | 'CE' | 'PRO' | 'ENTERPRISE' | 'ENTERPRISE_PLUS' | 'EDGE' | 'TRIAL'

/** Licence types that unlock the security-and-compliance screens (the spec does not list them). */
export const SECURITY_LICENSES: readonly LicenseTypeName[] = ['ENTERPRISE', 'ENTERPRISE_PLUS', 'TRIAL']
/** Licence types that count as enterprise-plus for the release-bundles source tab. */
export const ENTERPRISE_PLUS_LICENSES: readonly LicenseTypeName[] = ['ENTERPRISE_PLUS', 'TRIAL']

/** Logo upload limits. */
export const LOGO_MAX_BYTES = 512 * 1024
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/gif', 'image/webp'] as const
