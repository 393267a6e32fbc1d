import type { ModuleType } from '@trove/contracts/services'
import { ENTERPRISE_PLUS_LICENSES, type LicenseTypeName, SECURITY_LICENSES } from '@trove/contracts/shellConstants'

export interface TeaserBullets {
  header: string
  content: string[]
}
export interface TeaserCard {
  label: string
  description: string
}

/**
 * What Trove has of a teased module (the spec is silent; Trove is free, so the invitation says what
 * turns it on): nothing yet (with what to use instead), a screen every node has, or one of Trove's
 * modules with the screen it opens and the licence types that include it.
 */
export type TeaserOffer =
  | { kind: 'notInTrove'; hint?: string }
  | { kind: 'inTrove'; path: string }
  | { kind: 'module'; service: ModuleType; path: string; licenses: readonly LicenseTypeName[] }

/**
 * Teaser module data (shell §3): a label, a description, a learn-more URL, and either bullets or
 * cards; and what Trove has of it.
 */
export type Teaser = { label: string; description: string; learnMoreUrl: string; offer: TeaserOffer } & (
  | { bullets: TeaserBullets[]; cards?: never }
  | { cards: TeaserCard[]; bullets?: never }
)

const LEARN = 'https://trove.example.org/docs'

/** Every teaser's invitation (shell §2.3) leads here. */
export const FREE_TRIAL_URL = 'https://trove.example.org/trial'

/** Shell §9: the demo admin prefix. */
export const DEMO_ADMIN_PREFIX = '/demo/admin'

/** Teasers of modules this instance does not run (shell §2.2, §2.5): their own routes show them. */
export const MODULE_TEASERS = {
  pipelines: {
    label: 'Pipelines',
    description: 'Automate builds, tests and releases next to the artifacts they produce.',
    learnMoreUrl: `${LEARN}/pipelines`,
    offer: { kind: 'notInTrove', hint: 'Builds lists the build info your CI publishes with each run.' },
    bullets: [
      {
        header: 'With pipelines you can',
        content: ['Run CI steps on every push', 'Promote builds between repositories', 'Keep the build info with the artifacts'],
      },
    ],
  },
  securityCompliance: {
    label: 'Security & Compliance',
    description: 'Scan every package for known vulnerabilities and licence issues before it reaches production.',
    learnMoreUrl: `${LEARN}/security`,
    offer: { kind: 'module', service: 'scanner', path: '/admin/security_policies', licenses: SECURITY_LICENSES },
    cards: [
      { label: 'Policies', description: 'Decide what happens when a vulnerability is found.' },
      { label: 'Watches', description: 'Choose the repositories and builds to keep an eye on.' },
      { label: 'SBOM', description: 'Export a software bill of materials for any version.' },
    ],
  },
  topology: {
    label: 'Topology',
    description: 'See every service and node of your platform, and how they connect.',
    learnMoreUrl: `${LEARN}/topology`,
    offer: { kind: 'inTrove', path: '/admin/mission_control/topology' },
    bullets: [
      {
        header: 'Topology shows',
        content: ['Each service and its health', 'Nodes of a high-availability cluster', 'Connections between sites'],
      },
    ],
  },
  releaseBundles: {
    label: 'Release Bundles',
    description: 'Ship a signed, immutable set of artifacts to edge nodes and other sites.',
    learnMoreUrl: `${LEARN}/distribution`,
    offer: { kind: 'module', service: 'distribution', path: '/release-bundles', licenses: ENTERPRISE_PLUS_LICENSES },
    cards: [
      { label: 'Source', description: 'Bundles created on this instance.' },
      { label: 'Target', description: 'Bundles received from other sites.' },
    ],
  },
} satisfies Record<string, Teaser>

/**
 * Shell §2.3: the admin modules with a demo teaser at /demo/admin/<path>, keyed by their admin
 * path: projects list, LDAP security, environments, users management, general security, general
 * configuration, platform monitoring. The demo route and its guard read this table only.
 */
export const DEMO_ADMIN_TEASERS: Readonly<Record<string, Teaser>> = {
  'projects/list': {
    label: 'Projects',
    description: 'Group repositories, members and roles by team.',
    learnMoreUrl: `${LEARN}/projects`,
    offer: { kind: 'inTrove', path: '/admin/projects/list' },
    bullets: [
      { header: 'Projects give you', content: ['Their own repositories', 'Members with project roles', 'Storage quotas'] },
    ],
  },
  'configuration/security/ldap': {
    label: 'LDAP',
    description: 'Sign users in with your directory and keep groups in sync.',
    learnMoreUrl: `${LEARN}/ldap`,
    offer: { kind: 'notInTrove', hint: 'Sign users in with OAuth SSO or SAML SSO.' },
    bullets: [{ header: 'LDAP integration', content: ['Several directories', 'Group synchronisation', 'Auto-created users'] }],
  },
  environments: {
    label: 'Environments',
    description: 'Tag repositories by environment (DEV, PROD) and give roles per environment.',
    learnMoreUrl: `${LEARN}/environments`,
    offer: { kind: 'notInTrove', hint: 'Keep a repository per environment, each with its own permissions.' },
    cards: [
      { label: 'DEV', description: 'Where builds land first.' },
      { label: 'PROD', description: 'What you ship.' },
    ],
  },
  'management/users': {
    label: 'Users Management',
    description: 'Create users, put them in groups and give them permissions.',
    learnMoreUrl: `${LEARN}/users`,
    offer: { kind: 'inTrove', path: '/admin/management/users' },
    bullets: [{ header: 'Manage', content: ['Users and groups', 'Permissions on repositories', 'Access tokens'] }],
  },
  'configuration/security/general': {
    label: 'General Security',
    description: 'Anonymous access, password policy and multi-factor authentication.',
    learnMoreUrl: `${LEARN}/security-configuration`,
    offer: { kind: 'inTrove', path: '/admin/configuration/security/general' },
    bullets: [{ header: 'Control', content: ['Anonymous access', 'Password expiry', 'MFA for everyone'] }],
  },
  'configuration/general': {
    label: 'General Configuration',
    description: 'Server name, base URL, logo, read-only mode and mail server.',
    learnMoreUrl: `${LEARN}/general-configuration`,
    offer: { kind: 'inTrove', path: '/admin/configuration/general' },
    cards: [
      { label: 'Branding', description: 'Your name and logo on every page.' },
      { label: 'Mail', description: 'Password resets and invitations.' },
    ],
  },
  'monitoring/service-status': {
    label: 'Platform Monitoring',
    description: 'The health of every service, and the logs behind it.',
    learnMoreUrl: `${LEARN}/monitoring`,
    offer: { kind: 'inTrove', path: '/admin/monitoring/service-status' },
    bullets: [{ header: 'Monitor', content: ['Service status', 'System logs', 'Storage'] }],
  },
}

/** The demo teaser of an admin path (`projects/list`, with or without slashes around it), if it has one. */
export function demoAdminTeaser(requiredAdminPath: string): Teaser | undefined {
  const key = requiredAdminPath.replace(/^\/+|\/+$/g, '')
  return Object.hasOwn(DEMO_ADMIN_TEASERS, key) ? DEMO_ADMIN_TEASERS[key] : undefined
}
