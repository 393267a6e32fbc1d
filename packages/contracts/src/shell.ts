import { z } from 'zod'
import { Messages } from './messages.js'
import { sanitizeProviderUrl } from './safeUrl.js'

export { ENTERPRISE_PLUS_LICENSES, LOGO_MAX_BYTES, LOGO_TYPES, SECURITY_LICENSES } from './shellConstants.js'

/** Product flavours that change what the console shows (shell §1). */
export const Flavour = z.enum(['platform', 'oss', 'jcr', 'ce', 'edge', 'edge_trial', 'tour'])
export type Flavour = z.infer<typeof Flavour>

/** Where the instance runs (shell §1). */
export const Deployment = z.enum(['cloud', 'onprem', 'lightweight'])
export type Deployment = z.infer<typeof Deployment>

/** Licence types; N/A means no licence at all (shell §4.2). */
export const LicenseType = z.enum(['N/A', 'OSS', 'JCR', 'CE', 'PRO', 'ENTERPRISE', 'ENTERPRISE_PLUS', 'EDGE', 'TRIAL'])
export type LicenseType = z.infer<typeof LicenseType>

export const License = z
  .object({
    type: LicenseType,
    licensedTo: z.string().max(255).nullable(),
    /** Epoch ms; null: never expires. */
    validThrough: z.number().int().nullable(),
  })
  .meta({ id: 'License' })
export type License = z.infer<typeof License>

export const LicenseInstall = z
  .object({
    type: LicenseType.exclude(['N/A']),
    licensedTo: z.string().trim().min(1).max(255),
    validThrough: z.number().int().positive().nullable(),
  })
  .meta({ id: 'LicenseInstall' })

/** Feature flags the console reads (§4.1, §4.2, §4.5, §6). Unknown names are refused. */
export const FEATURE_NAMES = [
  'tested',
  'homePage',
  'platformGetStarted',
  'quickDeployLandingPage',
  'newOnboarding',
  'projects',
  'helpLinks',
  'classicUi',
  'newUiBeta',
  'analytics',
  'adoption',
  'userDataEnrichment',
  'contactScheduling',
  'skipRepoData',
  'skipOnboardingData',
  'archiveSearch',
  'legacyVersionView',
  'operationalRisk',
] as const
export const FeatureName = z.enum(FEATURE_NAMES)
export type FeatureName = z.infer<typeof FeatureName>
/** Every flag, on or off (answers). */
export const Features = z.record(FeatureName, z.boolean())
export type Features = Record<FeatureName, boolean>
/** Some flags (changes). */
export const FeaturesPatch = z.partialRecord(FeatureName, z.boolean())
export type FeaturesPatch = z.infer<typeof FeaturesPatch>

/** GET ui/entitlements: the instance model the console starts from. */
export const Entitlements = z
  .object({
    flavour: Flavour,
    deployment: Deployment,
    license: License,
    /** A cloud deployment on a trial licence (shell §4.5 step 4). */
    cloudTrial: z.boolean(),
    anonymousAccess: z.boolean(),
    uiAccessBlocked: z.boolean(),
    readOnly: z.boolean(),
    /** An admin uploaded a logo (GET ui/generalConfig/logo answers it). */
    hasLogo: z.boolean(),
  })
  .meta({ id: 'Entitlements' })
export type Entitlements = z.infer<typeof Entitlements>

/** PUT ui/admin/instance: what an admin may change of the instance model besides the licence. */
export const InstanceUpdate = z
  .object({ flavour: Flavour.optional(), deployment: Deployment.optional(), features: FeaturesPatch.optional() })
  .meta({ id: 'InstanceUpdate' })
export type InstanceUpdate = z.infer<typeof InstanceUpdate>

export const FeatureConfig = z.object({ features: Features }).meta({ id: 'FeatureConfig' })
export type FeatureConfig = z.infer<typeof FeatureConfig>

export const FrontendVersion = z.object({ version: z.string(), revision: z.string() }).meta({ id: 'FrontendVersion' })

export const Microservice = z.object({ name: z.string(), enabled: z.boolean() })
export const Microservices = z.object({ services: z.array(Microservice) }).meta({ id: 'Microservices' })
export type Microservices = z.infer<typeof Microservices>

/** Per-user browser-state kept on the server (menus' last destinations, personalization…). */
export const LocalStorage = z.record(z.string().max(100), z.string().max(10_000)).meta({ id: 'LocalStorage' })
export type LocalStorage = z.infer<typeof LocalStorage>

export const ProjectSummary = z.object({ key: z.string(), name: z.string(), admin: z.boolean() })
export const ProjectList = z.object({ projects: z.array(ProjectSummary) }).meta({ id: 'ProjectList' })
export type ProjectList = z.infer<typeof ProjectList>

export const SamlLogoutUrl = z.object({ logoutUrl: z.string().nullable() }).meta({ id: 'SamlLogoutUrl' })

export const AvailablePackages = z.object({ packageTypes: z.array(z.string()) }).meta({ id: 'AvailablePackages' })
export type AvailablePackages = z.infer<typeof AvailablePackages>

export const RepoData = z
  .object({ local: z.number().int(), remote: z.number().int(), virtual: z.number().int(), federated: z.number().int() })
  .meta({ id: 'RepoData' })
export type RepoData = z.infer<typeof RepoData>

export const OnboardingInitStatus = z
  .object({
    hasOnlyDefaultRepos: z.boolean(),
    isOnboardingNeeded: z.boolean(),
    isFirstLogin: z.boolean(),
    isWizardClosed: z.boolean(),
    userSeenGettingStarted: z.boolean(),
  })
  .meta({ id: 'OnboardingInitStatus' })
export type OnboardingInitStatus = z.infer<typeof OnboardingInitStatus>

export const BlockedUsages = z.object({ dataTransfer: z.boolean(), purchaseUrl: z.string() }).meta({ id: 'BlockedUsages' })
export type BlockedUsages = z.infer<typeof BlockedUsages>

/** General configuration (admin). */
export const GeneralConfig = z
  .object({
    serverName: z.string().trim().max(100),
    baseUrl: z.union([z.literal(''), z.url({ error: 'Enter a valid URL' }).max(1024)]),
    readOnly: z.boolean(),
    hasLogo: z.boolean(),
  })
  .meta({ id: 'GeneralConfig' })
export type GeneralConfig = z.infer<typeof GeneralConfig>
export const GeneralConfigUpdate = GeneralConfig.omit({ hasLogo: true }).meta({ id: 'GeneralConfigUpdate' })
export type GeneralConfigUpdate = z.infer<typeof GeneralConfigUpdate>

export const UiAccess = z.object({ blocked: z.boolean() }).meta({ id: 'UiAccess' })

/** Reverse proxy configuration (operations §3). */
export const DockerReverseProxyMethod = z.enum(['SUBDOMAIN', 'REPOPATHPREFIX', 'PORTPERREPO'])
/** The web server a reverse proxy's configuration is written for. */
export const WebServerType = z.enum(['nginx', 'haproxy'])
export type WebServerType = z.infer<typeof WebServerType>
export const ReverseProxy = z
  .object({
    key: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9._-]+$/, 'Name can only contain alphanumeric characters, dashes and periods'),
    serverName: z.string().trim().min(1, 'This field is mandatory').max(255),
    dockerReverseProxyMethod: DockerReverseProxyMethod,
    reverseProxyRepositories: z.array(
      z.object({ repoKey: z.string().min(1).max(64), serverPort: z.number().int().min(1).max(65535).optional() }),
    ),
    useHttps: z.boolean(),
    useHttp: z.boolean(),
    httpsPort: z.number().int().min(1).max(65535),
    httpPort: z.number().int().min(1).max(65535),
    sslCertificate: z.string().max(1024),
    sslKey: z.string().max(1024),
    upstreamUrl: z.string().max(1024),
    /**
     * The other nodes of a cluster, each at its own URL (its TROVE_NODE_URL): the proxy spreads
     * requests over the upstream URL and these, and moves a request a node failed to answer to the next one.
     */
    clusterNodeUrls: z.array(z.string().max(1024)).max(64).optional(),
    /**
     * Absent: nginx (proxies saved before haproxy was offered have none). With haproxy,
     * sslCertificate is one PEM file holding the certificate and its key, and sslKey is not used.
     */
    webServerType: WebServerType.optional(),
  })
  .meta({ id: 'ReverseProxy' })
export type ReverseProxy = z.infer<typeof ReverseProxy>
export const ReverseProxyList = z.object({ proxies: z.array(ReverseProxy) }).meta({ id: 'ReverseProxyList' })
export const NginxConfig = z.object({ config: z.string() }).meta({ id: 'NginxConfig' })
export const HaproxyConfig = z.object({ config: z.string() }).meta({ id: 'HaproxyConfig' })

/** GET ui/system/configuration/webServer: how the instance is reached. */
export const WebServerConfig = z
  .object({ baseUrl: z.string().nullable(), reverseProxies: z.array(z.string()) })
  .meta({ id: 'WebServerConfig' })

/**
 * GET/PUT /ui/api/v1/ui/accountPortal: the account portal an administrator points users at
 * (/user/my-jfrog-redirect sends the browser there). '' means none is set.
 */
export const AccountPortal = z
  .object({
    url: z.union([
      z.literal(''),
      z
        .string()
        .trim()
        .max(2048)
        .refine((v) => /^https?:\/\//i.test(v) && sanitizeProviderUrl(v) !== null, Messages.invalidUrl),
    ]),
  })
  .meta({ id: 'AccountPortal' })
export type AccountPortal = z.infer<typeof AccountPortal>
