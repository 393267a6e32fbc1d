import { PACKAGE_TYPE_NAMES, PACKAGE_TYPES, type PackageTypeName } from '@trove/contracts/repositoryConstants'
import type { CatalogueGroup, CatalogueItem, ConfigureAction } from './catalogueTypes'

/**
 * The integrations catalogue (packages §3 "Integrations"): every card of /integrations, by group.
 * The git vendors' names are the vendor table route's vendorName.
 */
const gitVendor = (name: string, label: string, rank: number, documentationLink: string): CatalogueItem => ({
  id: `git-${name}`,
  label,
  icon: 'git',
  rank,
  categories: ['sourceControl', 'security'],
  vendors: [],
  documentationLink,
  configureAction: { type: 'redirect', payload: { to: `/integrations/vendor/list/${name}` } },
})

const developerTool = (tool: string, label: string, icon: CatalogueItem['icon'], rank: number, documentationLink: string) =>
  ({
    id: `ide-${tool}`,
    label,
    icon,
    rank,
    categories: ['ide'],
    vendors: [],
    documentationLink,
    configureAction: { type: 'action', actionName: 'ideIntegration', payload: { tool: label } },
  }) satisfies CatalogueItem

const PACKAGE_DOCS: Record<PackageTypeName, string> = {
  npm: 'https://docs.npmjs.com/cli/configuring-npm/npmrc',
  pypi: 'https://pip.pypa.io/en/stable/topics/configuration/',
  docker: 'https://docs.docker.com/reference/cli/docker/login/',
  maven: 'https://maven.apache.org/settings.html',
  generic: 'https://curl.se/docs/manpage.html',
  go: 'https://go.dev/ref/mod#private-module-proxy-auth',
  helm: 'https://helm.sh/docs/helm/helm_repo_add/',
  cargo: 'https://doc.rust-lang.org/cargo/reference/registries.html',
  gems: 'https://guides.rubygems.org/command-reference/#gem-sources',
  composer: 'https://getcomposer.org/doc/articles/authentication-for-private-packages.md#http-basic',
  debian: 'https://manpages.debian.org/bookworm/apt/sources.list.5.en.html',
  nuget: 'https://learn.microsoft.com/nuget/reference/cli-reference/cli-ref-sources',
}

/** One card per package format Trove serves; Set Up opens quick repository creation for it. */
const packageFormat = (type: PackageTypeName): CatalogueItem => ({
  id: `package-${type}`,
  label: PACKAGE_TYPE_NAMES[type],
  icon: type === 'docker' ? 'container' : 'package',
  rank: type === 'generic' ? 5 : 1,
  categories: type === 'docker' ? ['packages', 'cloudNative'] : ['packages'],
  vendors: [],
  documentationLink: PACKAGE_DOCS[type],
  configureAction: { type: 'action', actionName: 'quickRepository', payload: { packageType: type } },
})

/** A pipeline needs an access token: Set Up opens the profile, where tokens are made. */
const CI_SET_UP: ConfigureAction = { type: 'redirect', payload: { to: '/user_profile' } }
/** A cluster pulls from Docker repositories: Set Up creates them. */
const DOCKER_SET_UP: ConfigureAction = { type: 'action', actionName: 'quickRepository', payload: { packageType: 'docker' } }

export const CATALOGUE_GROUPS: CatalogueGroup[] = [
  {
    id: 'sourceControl',
    label: 'Source control',
    items: [
      gitVendor(
        'github',
        'GitHub',
        2,
        'https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens',
      ),
      gitVendor('gitlab', 'GitLab', 2, 'https://docs.gitlab.com/user/profile/personal_access_tokens/'),
      gitVendor('bitbucket', 'Bitbucket Cloud', 3, 'https://support.atlassian.com/bitbucket-cloud/docs/access-tokens/'),
      gitVendor(
        'bitbucketServer',
        'Bitbucket Server',
        3,
        'https://confluence.atlassian.com/bitbucketserver/http-access-tokens-939515499.html',
      ),
    ],
  },
  {
    id: 'developerTools',
    label: 'Developer Tools',
    items: [
      developerTool('vscode', 'Visual Studio Code', 'code', 2, 'https://code.visualstudio.com/docs/setup/network'),
      developerTool('jetbrains', 'JetBrains IDEs', 'code', 2, 'https://www.jetbrains.com/help/idea/maven-support.html'),
      developerTool('eclipse', 'Eclipse IDE', 'code', 4, 'https://help.eclipse.org/latest/index.jsp'),
      developerTool('docker-desktop', 'Docker Desktop', 'desktop', 3, 'https://docs.docker.com/desktop/'),
    ],
  },
  {
    id: 'continuousIntegration',
    label: 'Continuous integration',
    items: [
      {
        id: 'ci-jenkins',
        label: 'Jenkins',
        icon: 'pipeline',
        rank: 4,
        categories: ['cicd'],
        vendors: [],
        documentationLink: 'https://www.jenkins.io/doc/book/using/using-credentials/',
        configureAction: CI_SET_UP,
      },
      {
        id: 'ci-github-actions',
        label: 'GitHub Actions',
        icon: 'pipeline',
        rank: 4,
        categories: ['cicd'],
        vendors: [],
        documentationLink: 'https://docs.github.com/en/actions/security-guides/using-secrets-in-github-actions',
        configureAction: CI_SET_UP,
      },
      {
        id: 'ci-gitlab',
        label: 'GitLab CI/CD',
        icon: 'pipeline',
        rank: 5,
        categories: ['cicd'],
        vendors: [],
        documentationLink: 'https://docs.gitlab.com/ci/variables/',
        configureAction: CI_SET_UP,
      },
      {
        id: 'ci-azure-pipelines',
        label: 'Azure Pipelines',
        icon: 'pipeline',
        rank: 6,
        categories: ['cicd'],
        vendors: ['azure'],
        documentationLink: 'https://learn.microsoft.com/en-us/azure/devops/pipelines/library/service-endpoints',
        configureAction: CI_SET_UP,
      },
    ],
  },
  { id: 'packages', label: 'Packages', items: PACKAGE_TYPES.map(packageFormat) },
  {
    id: 'cloudNative',
    label: 'Cloud native',
    items: [
      {
        id: 'cloud-kubernetes',
        label: 'Kubernetes',
        icon: 'container',
        rank: 6,
        categories: ['cloudNative'],
        vendors: [],
        documentationLink: 'https://kubernetes.io/docs/tasks/configure-pod-container/pull-image-private-registry/',
        configureAction: DOCKER_SET_UP,
      },
      {
        id: 'cloud-ecs',
        label: 'Amazon ECS',
        icon: 'cloud',
        rank: 7,
        categories: ['cloudNative'],
        vendors: ['aws'],
        documentationLink: 'https://docs.aws.amazon.com/AmazonECS/latest/developerguide/private-auth.html',
        configureAction: DOCKER_SET_UP,
      },
      {
        id: 'cloud-aks',
        label: 'Azure Kubernetes Service',
        icon: 'cloud',
        rank: 7,
        categories: ['cloudNative'],
        vendors: ['azure'],
        documentationLink: 'https://learn.microsoft.com/en-us/azure/aks/',
        configureAction: DOCKER_SET_UP,
      },
      {
        id: 'cloud-gke',
        label: 'Google Kubernetes Engine',
        icon: 'cloud',
        rank: 7,
        categories: ['cloudNative'],
        vendors: ['gcp'],
        documentationLink: 'https://cloud.google.com/kubernetes-engine/docs',
        configureAction: DOCKER_SET_UP,
      },
    ],
  },
  {
    id: 'authentication',
    label: 'Authentication',
    items: [
      {
        id: 'auth-oidc',
        label: 'OpenID Connect',
        icon: 'key',
        rank: 8,
        categories: ['authentication'],
        vendors: [],
        documentationLink: 'https://openid.net/developers/how-connect-works/',
        configureAction: { type: 'redirect', payload: { to: '/admin/configuration/security/oauth' } },
      },
      {
        id: 'auth-saml',
        label: 'SAML',
        icon: 'key',
        rank: 8,
        categories: ['authentication'],
        vendors: [],
        documentationLink: 'https://docs.oasis-open.org/security/saml/Post2.0/sstc-saml-tech-overview-2.0.html',
        configureAction: { type: 'redirect', payload: { to: '/admin/configuration/security/saml_integration' } },
      },
    ],
  },
]

/** Every card of the catalogue, in the data module's order. */
export const CATALOGUE: CatalogueItem[] = CATALOGUE_GROUPS.flatMap((g) => g.items)
