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
