/** The search model's constants (packages §3, §5): query keys, search types, package types. */

/** Each filter of the search model and its short key in the query string (packages §3). */
export const SEARCH_QUERY_KEYS = {
  packageTypes: 'pkg',
  repositories: 'repo',
  name: 'name',
  description: 'description',
  checksum: 'checksum',
  cve: 'cve',
  licenses: 'licenses',
  severities: 'severities',
  properties: 'properties',
  before: 'before',
  after: 'after',
  archiveSearchType: 'archive',
  propertySets: 'propertySets',
  artifactsSearchType: 'searchType',
  isChecksum: 'isChecksum',
  path: 'path',
  excludeInnerClasses: 'excludeInnerClasses',
  searchClassOnly: 'searchClassOnly',
  packageType: 'pkgType',
  packageSpecificQuery: 'packageQuery',
  version: 'version',
  tags: 'tags',
  scope: 'scope',
  branch: 'branch',
  // Sorting (the version filter's sort_by and sort_type, §3), under the same names.
  sortBy: 'sort_by',
  sortType: 'sort_type',
} as const
export type SearchFilterName = keyof typeof SEARCH_QUERY_KEYS

/** Filters that hold several values, written comma-separated: pkg:npm,maven. */
export const LIST_FILTERS = ['packageTypes', 'repositories', 'licenses', 'severities', 'tags'] as const
/** Filters that are dates, written YYYY-MM-DD (§5). */
export const DATE_FILTERS = ['before', 'after'] as const
/** Filters that are yes/no. */
export const FLAG_FILTERS = ['isChecksum', 'excludeInnerClasses', 'searchClassOnly'] as const

/** The artifacts search's kinds; Archive needs the archive-search feature, else it becomes Quick (§4). */
export const ARTIFACTS_SEARCH_TYPES = ['Quick', 'Package', 'Archive', 'Property', 'Checksum', 'JCenter'] as const

/** Severities a version filter can ask for (each needs a minimum count of 1, §5). */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const

/** Sort directions; every spelling of §5 is read, ASC by default. */
export const SORT_TYPES = ['ASC', 'DESC'] as const
export type SortType = (typeof SORT_TYPES)[number]
export const SORT_FIELDS = ['name', 'created', 'modified', 'downloads', 'versionsCount'] as const

/** The package types the quick search offers (§3); All is sent as '*' (§5). */
export const QUICK_SEARCH_PACKAGE_TYPES = ['All', 'docker', 'npm', 'maven', 'go', 'nuget', 'helm'] as const
/** Also listed (§3). */
export const OTHER_PACKAGE_TYPES = ['dockerV1', 'terraformBackend', 'releasebundles', 'helmoci'] as const

/** Package type aliases (§3): a name the user or a client writes → the name the metadata uses. */
export const PACKAGE_TYPE_ALIASES: Record<string, string> = {
  go: 'golang',
  terraformmodule: 'terraform',
  terraformprovider: 'terraform',
  golang: 'go',
  gav: 'maven',
  deb: 'debian',
  rubygems: 'gems',
  huggingfaceml: 'huggingfacemlmodel',
  hfdataset: 'huggingfacemldataset',
  frogml: 'frogmlmodel',
}

/** Package types → the project features that stand for them (§3). */
export const PROJECT_FEATURE_TYPES: Record<string, string[]> = {
  debian: ['deb'],
  gems: ['rubygems'],
  huggingfaceml: ['HUGGINGFACEML', 'HFDATASET'],
  frogml: ['FROGML', 'FROGMLDATASET'],
}

/** Lead-file extensions that make Readme the default tab (§2, §9). */
export const README_EXTENSIONS = ['tgz', 'gz', 'zip', 'jar', 'war', 'nupkg', 'crate', 'apk', 'whl', 'egg', 'mod'] as const

/** Package types with special install handling (§9). */
export const SPECIAL_INSTALL_TYPES = ['maven', 'ivy', 'gradle', 'docker', 'conan', 'helmoci'] as const

/** Install commands by type (§9): the plain form and the form with a version. */
export const INSTALL_COMMANDS: Record<string, { plain: string; versioned: string }> = {
  alpine: { plain: 'apk add {name}', versioned: 'apk add {name}={version}' },
  cargo: { plain: 'cargo install {name}', versioned: 'cargo install {name} --version {version}' },
  chef: { plain: 'knife install {name}', versioned: 'knife install {name} {version}' },
  composer: { plain: 'composer require {name}', versioned: 'composer require {name}:{version}' },
  debian: { plain: 'apt-get install {name}', versioned: 'apt-get install {name}={version}' },
  gems: { plain: 'gem install {name}', versioned: 'gem install {name} -v {version}' },
  npm: { plain: 'npm i {name}', versioned: 'npm i {name}@{version}' },
  nuget: { plain: 'nuget install {name}', versioned: 'nuget install {name} -Version {version}' },
  opkg: { plain: 'opkg install {name}', versioned: 'opkg install {name}={version}' },
  pypi: { plain: 'pip install {name}', versioned: 'pip install {name}=={version}' },
  rpm: { plain: 'yum install {name}', versioned: 'yum install {name}-{version}' },
  bower: { plain: 'bower install {name}', versioned: 'bower install {name}#{version}' },
  docker: { plain: 'docker pull {name}', versioned: 'docker pull {name}:{version}' },
  go: { plain: 'go get {name}', versioned: 'go get {name}@{version}' },
  puppet: { plain: 'puppet module install {name}', versioned: 'puppet module install {name} --version {version}' },
  helmoci: { plain: 'helm pull oci://{host}/{name}', versioned: 'helm pull oci://{host}/{name} --version {version}' },
}

/** Default list page size (§9) and the versions' count floor of a package search (§5). */
export const PACKAGE_PAGE_SIZE = 100
export const VERSION_COUNT_MIN = 1
/** How many recent searches each user keeps (the spec leaves the limit open). */
export const RECENT_SEARCH_LIMIT = 10
/** The user name recent searches are kept under when nobody is signed in (§3). */
export const ANONYMOUS_RECENT_SEARCH_USER = 'anonymous'

/** The artifacts browse path and its default tree path (§2). */
export const ARTIFACTS_BROWSE_PATH = '/artifacts/browse'
export const ARTIFACTS_DEFAULT_TREE = '/tree/General'
/** The tree browser's route (shell §2.4): `/artifacts/browse/tree/General/{repoKey}/{path}`. */
export const ARTIFACTS_TREE_PATH = `${ARTIFACTS_BROWSE_PATH}${ARTIFACTS_DEFAULT_TREE}`
