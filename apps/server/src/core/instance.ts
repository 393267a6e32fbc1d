import {
  type Deployment,
  type Entitlements,
  FEATURE_NAMES,
  type Features,
  type FeaturesPatch,
  type Flavour,
  type GeneralConfig,
  type License,
} from '@trove/contracts/shell'
import type { Kysely } from 'kysely'
import type { Config } from './config.js'
import type { Database } from './schema.js'
import { getSetting, setSetting } from './settings.js'

export const FLAVOUR_SETTING = 'instance.flavour'
export const DEPLOYMENT_SETTING = 'instance.deployment'
export const FEATURES_SETTING = 'instance.features'
export const LICENSE_SETTING = 'instance.license'
export const GENERAL_SETTING = 'general.config'
export const LOGO_SETTING = 'general.logo'
export const UI_ACCESS_BLOCKED_SETTING = 'security.uiAccessBlocked'
/** Written by the access-control area; read here for the console's start-up. */
export const ANONYMOUS_ACCESS_SETTING = 'security.anonymousAccess'
export const BLOCKED_USAGES_SETTING = 'subscription.blockedUsages'

/** A fresh instance carries the built-in open-source licence, which never expires. */
export const DEFAULT_LICENSE: License = { type: 'OSS', licensedTo: null, validThrough: null }
export const NO_LICENSE: License = { type: 'N/A', licensedTo: null, validThrough: null }

/** Features on unless configured otherwise. */
const DEFAULT_FEATURES: FeaturesPatch = { helpLinks: true, projects: true, newOnboarding: true }

type Db = Kysely<Database>

export async function readFlavour(db: Db, config: Config): Promise<Flavour> {
  return getSetting(db, FLAVOUR_SETTING, config.instance.flavour as Flavour)
}

export async function readDeployment(db: Db, config: Config): Promise<Deployment> {
  return getSetting(db, DEPLOYMENT_SETTING, config.instance.deployment as Deployment)
}

/** Defaults, then configuration, then what an admin set. */
export async function readFeatures(db: Db, config: Config): Promise<Features> {
  const stored = await getSetting<FeaturesPatch>(db, FEATURES_SETTING, {})
  const merged: FeaturesPatch = { ...DEFAULT_FEATURES, ...config.instance.features, ...stored }
  return Object.fromEntries(FEATURE_NAMES.map((name) => [name, merged[name] === true])) as Features
}

/** The installed licence; an expired one counts as none (N/A). */
export async function readLicense(db: Db, now = Date.now()): Promise<License> {
  return licenseAt(await readStoredLicense(db), now)
}

/** The licence as stored, whether or not it has expired. */
export function readStoredLicense(db: Db): Promise<License> {
  return getSetting<License>(db, LICENSE_SETTING, DEFAULT_LICENSE)
}

/** A stored licence as it stands at `now`: once expired, none (N/A). */
export function licenseAt(license: License, now = Date.now()): License {
  if (license.validThrough !== null && license.validThrough < now) return NO_LICENSE
  return license
}

export async function readGeneralConfig(db: Db, config: Config): Promise<GeneralConfig> {
  const stored = await getSetting<Partial<GeneralConfig>>(db, GENERAL_SETTING, {})
  const logo = await db.selectFrom('settings').select('key').where('key', '=', LOGO_SETTING).executeTakeFirst()
  return {
    serverName: stored.serverName ?? config.serverName ?? '',
    baseUrl: stored.baseUrl ?? config.baseUrl ?? '',
    readOnly: stored.readOnly ?? false,
    hasLogo: logo !== undefined,
  }
}

export async function isReadOnly(db: Db): Promise<boolean> {
  return (await getSetting<Partial<GeneralConfig>>(db, GENERAL_SETTING, {})).readOnly === true
}

export async function writeGeneralConfig(db: Db, value: Omit<GeneralConfig, 'hasLogo'>): Promise<void> {
  await setSetting(db, GENERAL_SETTING, value)
}

export async function readEntitlements(db: Db, config: Config): Promise<Entitlements> {
  const [flavour, deployment, license, anonymousAccess, uiAccessBlocked, readOnly, logo] = await Promise.all([
    readFlavour(db, config),
    readDeployment(db, config),
    readLicense(db),
    readAnonymousAccess(db),
    getSetting(db, UI_ACCESS_BLOCKED_SETTING, false),
    isReadOnly(db),
    db.selectFrom('settings').select('key').where('key', '=', LOGO_SETTING).executeTakeFirst(),
  ])
  return {
    flavour,
    deployment,
    license,
    cloudTrial: deployment === 'cloud' && license.type === 'TRIAL',
    anonymousAccess,
    uiAccessBlocked,
    readOnly,
    hasLogo: logo !== undefined,
  }
}

/** The anonymous-access switch; stored as a boolean or as `{ enabled }`. */
export async function readAnonymousAccess(db: Db): Promise<boolean> {
  const value = await getSetting<unknown>(db, ANONYMOUS_ACCESS_SETTING, false)
  if (typeof value === 'boolean') return value
  return typeof value === 'object' && value !== null && (value as { enabled?: unknown }).enabled === true
}
