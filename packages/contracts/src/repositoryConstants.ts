/** Repository constants without zod, for the console's screens (they stay light). */

/** Package types a repository can hold. */
export const PACKAGE_TYPES = [
  'npm',
  'pypi',
  'docker',
  'maven',
  'generic',
  'helm',
  'go',
  'cargo',
  'gems',
  'composer',
  'debian',
  'nuget',
] as const
export type PackageTypeName = (typeof PACKAGE_TYPES)[number]

/** How each type is written in the repository list, as tools expect it. */
export const PACKAGE_TYPE_LABELS: Record<PackageTypeName, string> = {
  npm: 'Npm',
  pypi: 'Pypi',
  docker: 'Docker',
  maven: 'Maven',
  generic: 'Generic',
  go: 'Go',
  helm: 'Helm',
  cargo: 'Cargo',
  gems: 'Gems',
  composer: 'Composer',
  debian: 'Debian',
  nuget: 'NuGet',
}

/** How the console names each type: the name its own clients and documentation use. */
export const PACKAGE_TYPE_NAMES: Record<PackageTypeName, string> = {
  npm: 'npm',
  pypi: 'PyPI',
  docker: 'Docker',
  maven: 'Maven',
  generic: 'Generic',
  go: 'Go',
  helm: 'Helm',
  cargo: 'Cargo',
  gems: 'RubyGems',
  composer: 'Composer',
  debian: 'Debian',
  nuget: 'NuGet',
}

/** The package-type choices of the console's selects: each type's key, shown by its name. */
export const PACKAGE_TYPE_OPTIONS = PACKAGE_TYPES.map((t) => ({ value: t, label: PACKAGE_TYPE_NAMES[t] }))

export const REPO_CLASSES = ['local', 'remote', 'virtual'] as const
export type RepoClassName = (typeof REPO_CLASSES)[number]

/** Keys that would shadow other paths under /artifactory/. */
export const RESERVED_REPO_KEYS = ['api', 'ui', 'v2', 'webapp', 'list', 'repositories']
export const REPO_KEY_MAX = 64
/** Letters, digits, dash, underscore and period (shell §7's shared form rule). */
export const REPO_KEY_PATTERN = /^[A-Za-z0-9_.-]+$/

/**
 * Where a quick setup's remote repository proxies by default: each client's public registry
 * (an admin changes it in the repository's settings; a generic repository gets no remote).
 */
export const DEFAULT_UPSTREAMS: Partial<Record<PackageTypeName, string>> = {
  npm: 'https://registry.npmjs.org',
  pypi: 'https://pypi.org',
  docker: 'https://registry-1.docker.io',
  maven: 'https://repo1.maven.org/maven2',
  go: 'https://proxy.golang.org',
  // A cargo remote's URL is its upstream's sparse index (what follows `sparse+`).
  cargo: 'https://index.crates.io',
  gems: 'https://rubygems.org',
  debian: 'https://deb.debian.org/debian',
  // A NuGet remote's URL is its upstream's v3 service index.
  nuget: 'https://api.nuget.org/v3/index.json',
}

/** Sample repositories quick creation makes for a package type (packages §3 names npm and docker's). */
export const SAMPLE_REPOSITORIES: Record<PackageTypeName, { key: string; rclass: RepoClassName }[]> = {
  npm: [
    { key: 'npm-local', rclass: 'local' },
    { key: 'npm-remote', rclass: 'remote' },
    { key: 'npm-virtual', rclass: 'virtual' },
  ],
  docker: [
    { key: 'docker-local', rclass: 'local' },
    { key: 'docker-remote', rclass: 'remote' },
    { key: 'docker-virtual', rclass: 'virtual' },
  ],
  pypi: [
    { key: 'pypi-local', rclass: 'local' },
    { key: 'pypi-remote', rclass: 'remote' },
    { key: 'pypi-virtual', rclass: 'virtual' },
  ],
  maven: [
    { key: 'maven-local', rclass: 'local' },
    { key: 'maven-remote', rclass: 'remote' },
    { key: 'maven-virtual', rclass: 'virtual' },
  ],
  generic: [{ key: 'generic-local', rclass: 'local' }],
  go: [
    { key: 'go-local', rclass: 'local' },
    { key: 'go-remote', rclass: 'remote' },
    { key: 'go-virtual', rclass: 'virtual' },
  ],
  // Helm has no one public chart repository to proxy by default.
  helm: [{ key: 'helm-local', rclass: 'local' }],
  cargo: [
    { key: 'cargo-local', rclass: 'local' },
    { key: 'cargo-remote', rclass: 'remote' },
    { key: 'cargo-virtual', rclass: 'virtual' },
  ],
  gems: [
    { key: 'gems-local', rclass: 'local' },
    { key: 'gems-remote', rclass: 'remote' },
    { key: 'gems-virtual', rclass: 'virtual' },
  ],
  composer: [
    { key: 'composer-local', rclass: 'local' },
    { key: 'composer-virtual', rclass: 'virtual' },
  ],
  debian: [
    { key: 'debian-local', rclass: 'local' },
    { key: 'debian-remote', rclass: 'remote' },
    { key: 'debian-virtual', rclass: 'virtual' },
  ],
  nuget: [
    { key: 'nuget-local', rclass: 'local' },
    { key: 'nuget-remote', rclass: 'remote' },
    { key: 'nuget-virtual', rclass: 'virtual' },
  ],
}

/**
 * The URL a repository's package client is configured with, by package type: what set-me-up
 * writes (a registry, an index, a proxy, an image prefix), not the repository's storage path.
 */
export function clientUrlOf(baseUrl: string, packageType: string, repoKey: string): string {
  switch (packageType) {
    case 'npm':
      return `${baseUrl}/api/npm/${repoKey}/`
    case 'pypi':
      return `${baseUrl}/api/pypi/${repoKey}/simple`
    case 'docker':
      return `${new URL(baseUrl).host}/${repoKey}`
    case 'helm':
      return `${baseUrl}/api/helm/${repoKey}`
    case 'go':
      return `${baseUrl}/api/go/${repoKey}`
    case 'cargo':
      return `sparse+${baseUrl}/api/cargo/${repoKey}/index/`
    case 'gems':
      return `${baseUrl}/api/gems/${repoKey}`
    case 'composer':
      return `${baseUrl}/api/composer/${repoKey}`
    case 'nuget':
      return `${baseUrl}/api/nuget/v3/${repoKey}/index.json`
    default:
      // Maven, generic and Debian clients use the repository's own path.
      return `${baseUrl}/artifactory/${repoKey}`
  }
}
