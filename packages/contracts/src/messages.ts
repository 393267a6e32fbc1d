/**
 * Every user-visible text the specification quotes, verbatim. Code and tests import these so the
 * two can never drift apart. Placeholders in braces are filled with `format()`.
 */

/** Fills `{name}` placeholders: format('Loading chunk {id} failed', { id: 7 }). */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole))
}

export const BRAND_NAME = 'Trove'

export const Messages = {
  // Generic error screen (shell §8)
  errorHeader: 'Oops!',
  errorSubheader: 'Something went wrong',
  errorUnexpected: 'An unexpected error has occurred and your request could not be completed.',
  errorPersists: 'Please try again and in case this problem persists contact your system administrator.',
  errorSeeMoreDetails: 'See more details',
  somethingWentWrong: 'something went wrong',

  // Access and modes
  notAuthorized: 'You are not authorized to view this page',
  readOnlyMode: 'You cannot use this option in read-only mode',

  // Password flows
  emailNotSent: "Email wasn't sent",
  resetPasswordFailed: 'Failed to reset the password',
  changePasswordFailed: 'Failed to change password',

  // Forms (shell §5)
  fieldMandatory: 'This field is mandatory',
  invalidName: 'Name can only contain alphanumeric characters, dashes and periods',
  fileExtensionJson: 'File should have an extension of .json',
  fileTooLarge: 'File size should be less than',
  invalidUrl: 'Enter a valid URL',
  projectKeyLowercase: 'Project key must start with a lowercase character',
  projectCreateFailed: 'Failed to create a project',

  // Contact us
  contactSuccessTitle: 'Thank you for your request',
  contactSuccessBody: 'We will be in touch via email soon',
  contactFailureTitle: 'There was an issue with your request',
  contactFailureBody: 'Please try to submit your request again',
  // Contact us: Trove's own texts where the spec is silent
  invalidEmail: 'Enter a valid e-mail address',
  commentTooLong: 'A comment can have at most {max} characters',

  // Micro-frontends and chunks
  microfrontendResolveFailed: 'Error: failed resolving microfrontend {path}',
  microfrontendFetchFailed: 'Could not fetch microfrontend application',
  microfrontendSetupFailed: 'Could not setup microfrontend application',
  chunkLoadFailed: 'Loading chunk {id} failed',
  cssChunkLoadFailedCode: 'CSS_CHUNK_LOAD_FAILED',

  // Quotas and storage
  dataTransferQuota: 'You have reached your monthly quota for Data Transfer. To continue and start enjoying unlimited transfer,',
  storageCalculatingFirst: 'Calculating the storage cache for the first time...',
  storageCalculating: 'Calculating...',

  // Packages (operations §2)
  noPackagesFound: 'No packages found, please refine your search criteria',
  findPackagesHint: 'Find your packages using the Search Bar',
  packageSoon: 'Package will be available in a few minutes / Please try again later',
  packageListNotReady: 'package list is not yet available',
  onlySemverReleases: 'Only semver release versions will be shown',
  // Packages: Trove's own texts where the spec is silent
  migrationRunning: 'A post-upgrade migration is running: partial search results may appear until it finishes.',
  noVersionsFound: 'No versions found',
  noReadme: 'This version has no readme',
  noBuilds: 'No builds contain this version',
  noDependencies: 'No dependencies',
  noDockerLayers: 'No layers',
  noReleases: 'No release bundles contain this version',
  noFiles: 'No files',
  noProperties: 'No properties',
  releaseVersionsOnly: 'Release versions only',
  searchDisabledEmpty: 'Type something to search for',
  searchTypeNeedsRole: 'Only an administrator or a project administrator can use this search',
  searchTypeNoContext: 'This search is not available inside a project',

  // Security data
  xrayUnavailable: 'Xray is unavailable',
  xrayLicenseRequired: 'Requires an Xray license',
  notScanned: 'Not Scanned',

  // Integrations
  searchIntegrations: 'Search for integrations',
  noIntegrationsFound: 'No integrations found',
  noIntegrationsHint: 'Try searching for a different integration or change your filter selection on the right',
  learnMore: 'Learn More',
  setUp: 'Set Up',
  connectionTestFailed: 'Connection test failed, please check your credentials',
  integrationCreated: 'Successfully created',
  integrationCreateFailed: 'Error while creating integration',
  integrationUpdated: 'Successfully updated',
  integrationUpdateFailed: 'Error while updating integration',
  integrationDeleted: 'Successfully deleted',
  integrationDeleteFailed: 'Error while deleting integration',
  userNameRequired: 'User name is required',
  tokenRequired: 'Token is required',
  integrationNameRequired: 'Integration name is required',

  // Operations
  waitingForLogs: 'Waiting for Logs...',
  uptimeUnavailable: 'unavailable',
  retentionFetchFailed: 'There was an error while trying to fetch retention feature status: {message}',
  // Operations: Trove's own texts where the spec is silent
  logRotated: 'The log file was rotated; reading the new file from its start.',
  logSkipped: '… {bytes} bytes skipped to keep up with the log …',
  logsPaused: 'Paused',
  bundleInProgress: 'In progress',
  noBundles: 'No support bundles yet',
  nodeOnlineRefused: 'Node {node} is online: stop it before removing it',
} as const

/**
 * Texts of the application's screens (not of sign-in): apart from `Messages`, so the sign-in
 * page's script does not carry them. Trove's own where the spec is silent; the integrations
 * catalogue's labels verbatim (packages §3).
 */
export const ScreenMessages = {
  integrationsTitle: 'Integrations',
  integrationFilterAll: 'All',
  integrationCategories: 'Categories',
  integrationCloudVendor: 'Cloud Vendor',
  screenNotAvailable: 'This screen is not available in this version of Trove.',
  adminHoldsEverything: 'You are an administrator: you may do everything on every repository and in every project.',
  noRepositoryPermissions: 'You hold no permission on any repository',
  noRepositoryMatches: 'No repository you hold a permission on matches',
  noProjectMemberships: 'You are not a member of any project',
  accountPortalNotSet: 'No account portal is set up for this instance. An administrator can set one under General Settings.',
  accountPortalLeaving: 'Taking you to your account portal…',
  authProviderNotConfigured: 'No enabled single-sign-on provider of the type {type} is set up here.',
  authProviderLeaving: 'Taking you to {name} to sign in…',
  authProviderChoose: 'More than one provider of this type is set up: choose one.',
  cliRegistrationWaiting:
    '{client} is waiting for you to sign in. After signing in you approve it with the code ending in {code}.',
  noPeersSeen: 'Sees no other node',
  integrationFilters: 'Filters',
  ideIntegrationBaseUrl: 'Base URL',
  ideIntegrationUser: 'User name',
  ideIntegrationApiKey: 'API key',
  ideIntegrationPassword: 'Your password',
  ideIntegrationShowKey: 'Show API key',
  ideIntegrationHint: 'Point {tool} at this address and sign in with your user name and API key.',
  // A scanned version's SBOM (the version's Security tab)
  sbomExport: 'Export SBOM',
  sbomCycloneDx: 'CycloneDX 1.6 (JSON)',
  sbomSpdx: 'SPDX 2.3 (JSON)',
  // The security scanner's administration
  scannerPoliciesTitle: 'Policies',
  scannerWatchesTitle: 'Watches',
  scannerViolationsTitle: 'Violations',
  scannerIgnoreRulesTitle: 'Ignore rules',
  scannerDatabaseTitle: 'Advisory database',
  scannerNoPolicies: 'No policy yet. A policy says which findings and licences violate it, and what follows.',
  scannerNoWatches: 'No watch yet. A watch applies policies to repositories.',
  scannerNoViolations: 'No violation matches',
  scannerNoIgnoreRules: 'No violation is ignored',
  scannerNoImports: 'Nothing imported yet',
  scannerNoPoliciesToApply: 'Create a policy first: a watch applies at least one.',
  scannerPolicyNeedsRule: 'Give a minimum severity or a licence rule, or the policy is never violated',
  scannerLicenceAllowedAndDenied: 'Allowed and denied at once: {ids}',
  scannerWatchNeedsPolicy: 'Apply at least one policy',
  scannerWatchNeedsRepository: 'Pick at least one repository (or all of them), a project or a build',
  scannerIgnoreNeedsReason: 'Say why it is ignored',
  scannerIgnoreExpiryPast: 'The expiry must be a day after today',
  scannerPolicySaved: 'Policy {name} saved',
  scannerPolicyDeleted: 'Policy {name} deleted',
  scannerPolicyDeleteConfirm: 'Delete the policy {name}? Watches must not apply it any more.',
  scannerWatchSaved: 'Watch {name} saved',
  scannerWatchDeleted: 'Watch {name} deleted',
  scannerWatchDeleteConfirm: 'Delete the watch {name}? Its policies stop applying to its repositories.',
  scannerIgnoreCreated: '{issue} is ignored',
  scannerIgnoreDeleted: 'The ignore rule of {issue} was removed',
  scannerIgnoreDeleteConfirm:
    'Remove the ignore rule of {issue}? Its violations show again, and block again where a policy blocks.',
  scannerImported: '{records} advisories imported; {versions} stored versions matched again',
  scannerImportFileType: 'Choose an OSV .zip or .json file',
  scannerFeedSaved: 'Advisory feed saved',
  scannerFeedNone: 'No feed is set: advisories come only from uploads, and nothing leaves this machine.',
  scannerNotOnThisNode: 'This node does not run the scanner: versions are scanned by the nodes that do. The database is shared.',
  // The security scanner's view of the repositories selected through a git integration
  gitScanWaiting: 'Waiting',
  gitScanScanning: 'Scanning',
  gitScanScanned: 'Scanned',
  gitScanNotScanned: 'Not scanned',
  gitScanClean: 'None found',
  gitScanFindings: 'Findings',
  gitScanFindingsOf: 'Findings of {repository}',
  gitScanFindingsAt: 'Dependencies of {repository} at commit {commit}, scanned {when}',
  gitScanNoFindings: 'No advisory affects the dependencies found in this repository.',
  // The security-compliance search type's results (packages §2)
  securitySearchTitle: 'Security search',
  securitySearchResults: 'Advisories and licences matching "{query}"',
  securitySearchInStored: 'Advisories found in the versions you can read',
  securitySearchNothing:
    'No advisory or licence matches. Search for an advisory id, a CVE, a package name, or licenses:<SPDX id>.',
  securitySearchNoneImpacted: 'No version you can read is affected.',
  securitySearchMoreImpacted: 'and {count} more',
  securitySearchLicensed: 'Versions under {licenses}',
  // Release bundles and their distribution
  releaseBundlesTitle: 'Release bundles',
  distributionOff: 'Distribution is not enabled on this node. Start Trove with TROVE_MODULES=repository,distribution.',
  noSourceBundles: 'No release bundle made here yet. A bundle is a signed list of files, shipped to other Trove nodes.',
  noTargetBundles: 'No release bundle has been received here yet.',
  noMatchingBundles: 'No release bundle matches',
  noBundleHistory: 'Nothing has been distributed, received or removed on this node yet.',
  bundleNameInvalid: 'Letters, digits, dots, dashes or underscores (at most 128), a letter or digit first',
  bundleVersionInvalid: 'Letters, digits, dots, plus signs, dashes or underscores (at most 64), a letter or digit first',
  bundleNeedsSource: 'Add at least one source: the bundle’s files come from its sources',
  bundlePropertiesInvalid: 'One key=value a line',
  bundleCreated: 'Release bundle {name} {version} created',
  bundleSigned: 'Release bundle {name} {version} signed',
  bundleDistributing: 'Release bundle {name} {version} is on its way to {targets}',
  bundleRemoving: 'Release bundle {name} {version} is being removed from {target}',
  bundleRecalling: 'Release bundle {name} {version} is being removed from every target',
  bundleDeleted: 'Release bundle {name} {version} deleted',
  bundleDeleteConfirm: 'Delete release bundle {name} {version}? Its files are no longer held here; copies on targets stay.',
  bundleDeleteReceivedConfirm: 'Delete release bundle {name} {version} and its files from this node?',
  bundleRecallConfirm: 'Remove release bundle {name} {version} from every target it was distributed to?',
  bundleRemoveConfirm: 'Remove release bundle {name} {version} from {target}? The target deletes it and its files.',
  bundleNotSigned: 'Not signed yet: signing freezes its files, and only a signed bundle can be distributed.',
  bundleNotDistributed: 'Not distributed yet',
  bundleTargetsAdminOnly: 'Only an administrator can list the targets: type the names of the ones to send to.',
  bundleNoTargets: 'No target yet: an administrator registers other Trove nodes as targets.',
  bundleTargetSaved: 'Target {name} registered',
  bundleTargetDeleted: 'Target {name} removed',
  bundleTargetDeleteConfirm: 'Remove the target {name}? Bundles already there stay; nothing more is sent to it.',
  bundleRetentionSaved: 'Retention saved',
  bundleRetentionRemoved: 'Retention removed {bundles}',
  bundleRetentionRemovedNothing: 'Retention removed nothing',
  bundleChecksumInvalid: 'Expected a sha256, sha1 or md5 in hex',
  bundleChecksumNoMatch: 'No release bundle holds a file with this checksum',
  bundleUpdated: 'Release bundle {name} {version} saved',
  bundleKeyRotateConfirm:
    'Make a new signing key and sign new bundles with it? Bundles signed before stay verifiable: their keys stay published, and targets are told the new key before the next distribution.',
  bundleKeyRotated: 'Signing key {id} is now active',
} as const

/** The catalogue's categories (packages §3), as its side panel names them. */
export const INTEGRATION_CATEGORY_LABELS = {
  sourceControl: 'Source Control',
  packages: 'Packages',
  cloudNative: 'Cloud Native',
  aiMlOps: 'AI/MLOps',
  authentication: 'Authentication',
  cicd: 'CI/CD',
  ide: 'IDE',
  security: 'Security',
} as const
export type IntegrationCategory = keyof typeof INTEGRATION_CATEGORY_LABELS

/** The catalogue's cloud vendors (packages §3). */
export const CLOUD_VENDOR_LABELS = { aws: 'AWS', azure: 'Azure', gcp: 'GCP' } as const
export type CloudVendor = keyof typeof CLOUD_VENDOR_LABELS

export type MessageKey = keyof typeof Messages

/** The default name of a SAML provider (shell §9). */
export const DEFAULT_SAML_PROVIDER_NAME = 'SAML SSO'

/** The default project (shell §3). */
export const DEFAULT_PROJECT = { name: 'Default Project', key: 'dflt' } as const

/**
 * Single sign-on: Trove's own wording for refusals (the spec quotes none). The callback sends the
 * browser to /login?ssoError=<key>&ssoUser=<name>; the login screen shows the text.
 */
export const SsoMessages = {
  notAutoCreated:
    'There is no Trove account for {user}, and this provider does not create accounts: ask an administrator to add you',
  otherRealm: 'The account {user} exists already and signs in another way',
  disabled: 'This user is disabled; ask an administrator to enable it',
  failed: 'Single sign-on failed: the provider did not confirm who you are',
  noUserName: 'Single sign-on failed: the provider gave no usable user name',
  expired: 'The sign-in took too long or was already used: please start again',
  unknownProvider: 'This single-sign-on provider does not exist or is switched off',
  samlOff: 'SAML single sign-on is not configured',
} as const
export type SsoErrorKey = keyof typeof SsoMessages
