/**
 * What each integration of the catalogue (packages §3) does with Trove, and the exact steps or
 * snippet to wire it up, written for this instance's URL and the signed-in user. No zod: the
 * catalogue's dialog stays light. The CI snippets share one shell script, which the server's tests
 * run against a real Trove.
 */
import { DEFAULT_UPSTREAMS, PACKAGE_TYPE_NAMES, type PackageTypeName, SAMPLE_REPOSITORIES } from './repositoryConstants.js'
import { type SetMeUpSnippet, setMeUpSnippets } from './setMeUp.js'

export interface GuideTarget {
  /** Where clients reach Trove, without a trailing slash (`GET ui/setMeUp`'s baseUrl). */
  baseUrl: string
  /** The signed-in user's name. */
  user: string
}

export interface GuideSnippet {
  /** Where the text goes: a file to write it into, or absent for commands to run in a shell. */
  file?: string
  language: 'shell' | 'yaml' | 'groovy' | 'ini' | 'xml' | 'json'
  text: string
}

export interface GuideStep {
  text: string
  snippet?: GuideSnippet
}

export interface IntegrationGuide {
  /** One sentence: what the integration does with Trove. */
  does: string
  steps: GuideStep[]
}

/** The parts of a CI snippet the user fills in. */
export const CI_PLACEHOLDERS = ['<REPO>', '<FILE>', '<BUILD>'] as const

/** The environment every CI snippet gives the script: the user and an access token kept as a secret. */
export const CI_USER_VARIABLE = 'TROVE_USER'
export const CI_TOKEN_VARIABLE = 'TROVE_TOKEN'

const TOKEN_STEP: GuideStep = {
  text: 'Create an access token for the pipeline (Edit Profile → Access tokens, scope "Read and deploy") and keep it in the CI tool as a secret, with your user name beside it.',
}

/**
 * The shell script of every CI snippet: uploads <FILE> to the generic repository <REPO> and
 * publishes the run as build <BUILD>, numbered by the CI's own run-number variable, so the Builds
 * screen lists it with the file it produced.
 */
export function ciScript(t: GuideTarget, numberVariable: string): string {
  const auth = `"$${CI_USER_VARIABLE}:$${CI_TOKEN_VARIABLE}"`
  return [
    `curl --fail-with-body -sS -u ${auth} -T <FILE> "${t.baseUrl}/artifactory/<REPO>/<BUILD>/$${numberVariable}/<FILE>"`,
    `sha1=$(sha1sum <FILE> | cut -d' ' -f1)`,
    `started=$(date -u +%Y-%m-%dT%H:%M:%S.000+0000)`,
    `curl --fail-with-body -sS -u ${auth} -X PUT -H 'Content-Type: application/json' "${t.baseUrl}/api/build" \\`,
    `  -d '{"name":"<BUILD>","number":"'"$${numberVariable}"'","started":"'"$started"'","modules":[{"id":"<BUILD>","artifacts":[{"name":"<FILE>","sha1":"'"$sha1"'"}]}]}'`,
    '',
  ].join('\n')
}

const indent = (text: string, by: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n')

/** The run-number variable each CI tool sets, which numbers the build in Trove. */
export const CI_NUMBER_VARIABLES = {
  'ci-jenkins': 'BUILD_NUMBER',
  'ci-github-actions': 'GITHUB_RUN_NUMBER',
  'ci-gitlab': 'CI_PIPELINE_IID',
  'ci-azure-pipelines': 'BUILD_BUILDID',
} as const
export type CiId = keyof typeof CI_NUMBER_VARIABLES

function ciGuide(id: CiId, t: GuideTarget): IntegrationGuide {
  const script = ciScript(t, CI_NUMBER_VARIABLES[id])
  const snippets: Record<CiId, GuideStep> = {
    'ci-jenkins': {
      text: 'Add a "Username with password" credential with the id trove (the token as its password), then publish from the Jenkinsfile:',
      snippet: {
        file: 'Jenkinsfile',
        language: 'groovy',
        text: `pipeline {\n  agent any\n  stages {\n    stage('Publish to Trove') {\n      steps {\n        withCredentials([usernamePassword(credentialsId: 'trove', usernameVariable: '${CI_USER_VARIABLE}', passwordVariable: '${CI_TOKEN_VARIABLE}')]) {\n          sh '''\n${indent(script.replaceAll('\\', '\\\\'), '            ')}\n          '''\n        }\n      }\n    }\n  }\n}\n`,
      },
    },
    'ci-github-actions': {
      text: `Add a repository secret ${CI_TOKEN_VARIABLE} (the token) and a variable ${CI_USER_VARIABLE} (${t.user}), then add this step to the workflow:`,
      snippet: {
        file: '.github/workflows/build.yml',
        language: 'yaml',
        text: `      - name: Publish to Trove\n        env:\n          ${CI_USER_VARIABLE}: \${{ vars.${CI_USER_VARIABLE} }}\n          ${CI_TOKEN_VARIABLE}: \${{ secrets.${CI_TOKEN_VARIABLE} }}\n        run: |\n${indent(script, '          ')}\n`,
      },
    },
    'ci-gitlab': {
      text: `Add masked CI/CD variables ${CI_USER_VARIABLE} (${t.user}) and ${CI_TOKEN_VARIABLE} (the token) under Settings → CI/CD → Variables, then add this job:`,
      snippet: {
        file: '.gitlab-ci.yml',
        language: 'yaml',
        text: `publish-to-trove:\n  stage: deploy\n  script:\n    - |\n${indent(script, '      ')}\n`,
      },
    },
    'ci-azure-pipelines': {
      text: `Add secret pipeline variables ${CI_USER_VARIABLE} (${t.user}) and ${CI_TOKEN_VARIABLE} (the token), then add this step; secrets reach a script only through env:`,
      snippet: {
        file: 'azure-pipelines.yml',
        language: 'yaml',
        text: `- script: |\n${indent(script, '    ')}\n  displayName: Publish to Trove\n  env:\n    ${CI_USER_VARIABLE}: $(${CI_USER_VARIABLE})\n    ${CI_TOKEN_VARIABLE}: $(${CI_TOKEN_VARIABLE})\n`,
      },
    },
  }
  return {
    does: 'Publishes what a pipeline builds to a Trove repository, with its build info, so Builds lists each run and the files it produced.',
    steps: [
      {
        text: 'Set Up opens your profile; create a generic repository for the files too, if you have none (Administration → Repositories).',
      },
      TOKEN_STEP,
      snippets[id],
      {
        text: `Fill in <REPO> (the repository), <FILE> (what the pipeline built) and <BUILD> (the build's name). Each run then shows under Builds.`,
      },
    ],
  }
}

const GIT_SCOPES: Record<string, string> = {
  'git-github': 'a personal access token with the repo scope (or a fine-grained one with Contents and Metadata read)',
  'git-gitlab': 'a personal access token with the read_api and read_repository scopes',
  'git-bitbucket': 'an API token with the Repositories: Read permission',
  'git-bitbucketServer': 'an HTTP access token with Repository read permission',
}

function gitGuide(id: string, label: string): IntegrationGuide {
  return {
    does: `Connects ${label} so the security scanner reads your repositories' dependency files and reports their vulnerabilities.`,
    steps: [
      { text: `In ${label}, create ${GIT_SCOPES[id] ?? 'a token that can read your repositories'}.` },
      {
        text: 'Set Up opens the vendor table: add an integration with a name, your user name there and the token; Test, then Create.',
      },
      { text: 'Choose the repositories to scan. Their findings show under Security & Compliance.' },
    ],
  }
}

const DOCKER_HOST = (t: GuideTarget) => new URL(t.baseUrl).host

function kubernetesGuide(label: string, t: GuideTarget, connect?: string): IntegrationGuide {
  const host = DOCKER_HOST(t)
  return {
    does: `Lets ${label} pull images from Trove's Docker repositories with an access token.`,
    steps: [
      { text: 'Set Up creates the Docker repositories (local, remote and virtual); push your images to docker-local.' },
      TOKEN_STEP,
      ...(connect
        ? [{ text: 'Point kubectl at the cluster:', snippet: { language: 'shell', text: `${connect}\n` } } as const]
        : []),
      {
        text: 'Keep the token in the namespace as a pull secret:',
        snippet: {
          language: 'shell',
          text: `kubectl create secret docker-registry trove-pull --docker-server=${host} --docker-username=${t.user} --docker-password=<TOKEN>\n`,
        },
      },
      {
        text: 'Name the secret in the pod spec and pull from the virtual repository:',
        snippet: {
          file: 'pod.yaml',
          language: 'yaml',
          text: `spec:\n  imagePullSecrets:\n    - name: trove-pull\n  containers:\n    - name: app\n      image: ${host}/docker-virtual/<IMAGE>:<TAG>\n`,
        },
      },
    ],
  }
}

function ecsGuide(t: GuideTarget): IntegrationGuide {
  const host = DOCKER_HOST(t)
  return {
    does: "Lets Amazon ECS tasks pull images from Trove's Docker repositories, with the token kept in AWS Secrets Manager.",
    steps: [
      { text: 'Set Up creates the Docker repositories (local, remote and virtual); push your images to docker-local.' },
      TOKEN_STEP,
      {
        text: 'Keep the credentials in Secrets Manager (the task execution role needs secretsmanager:GetSecretValue on it):',
        snippet: {
          language: 'shell',
          text: `aws secretsmanager create-secret --name trove-pull --secret-string '{"username":"${t.user}","password":"<TOKEN>"}'\n`,
        },
      },
      {
        text: "Name the secret's ARN in the task definition's container:",
        snippet: {
          file: 'task-definition.json',
          language: 'json',
          text: `"containerDefinitions": [\n  {\n    "name": "app",\n    "image": "${host}/docker-virtual/<IMAGE>:<TAG>",\n    "repositoryCredentials": { "credentialsParameter": "<SECRET_ARN>" }\n  }\n]\n`,
        },
      },
    ],
  }
}

function ideGuide(label: string, t: GuideTarget): IntegrationGuide {
  const tool: Record<string, GuideStep> = {
    'Visual Studio Code': {
      text: "VS Code's terminal, tasks and extensions use the package clients' own settings; for npm, put this in the workspace's .npmrc:",
      snippet: {
        file: '.npmrc',
        language: 'ini',
        text: `registry=${t.baseUrl}/api/npm/npm-virtual/\n${t.baseUrl.replace(/^https?:/, '')}/api/npm/npm-virtual/:_authToken=<API_KEY>\n`,
      },
    },
    'JetBrains IDEs': {
      text: "IntelliJ's Maven and Gradle read ~/.m2/settings.xml: add Trove as a mirror, with your user name and API key:",
      snippet: {
        file: '~/.m2/settings.xml',
        language: 'xml',
        text: `<settings>\n  <servers>\n    <server><id>trove</id><username>${t.user}</username><password>&lt;API_KEY&gt;</password></server>\n  </servers>\n  <mirrors>\n    <mirror><id>trove</id><mirrorOf>*</mirrorOf><url>${t.baseUrl}/artifactory/maven-virtual</url></mirror>\n  </mirrors>\n</settings>\n`,
      },
    },
    'Eclipse IDE': {
      text: 'Eclipse (m2e) reads the same ~/.m2/settings.xml as Maven; after saving it, run Maven → Update Project:',
      snippet: {
        file: '~/.m2/settings.xml',
        language: 'xml',
        text: `<settings>\n  <servers>\n    <server><id>trove</id><username>${t.user}</username><password>&lt;API_KEY&gt;</password></server>\n  </servers>\n  <mirrors>\n    <mirror><id>trove</id><mirrorOf>*</mirrorOf><url>${t.baseUrl}/artifactory/maven-virtual</url></mirror>\n  </mirrors>\n</settings>\n`,
      },
    },
    'Docker Desktop': {
      text: 'Sign Docker Desktop in to Trove from a terminal; images then push and pull by their Trove names:',
      snippet: {
        language: 'shell',
        text: `docker login ${DOCKER_HOST(t)} --username ${t.user}\ndocker pull ${DOCKER_HOST(t)}/docker-virtual/<IMAGE>:<TAG>\n`,
      },
    },
  }
  return {
    does: `Lets ${label} fetch and publish through Trove with your user name and API key.`,
    steps: [
      { text: "Set Up shows Trove's URL, your user name and your API key (your password shows the key the first time)." },
      tool[label] ?? { text: 'Give the tool the URL, your user name and the API key.' },
    ],
  }
}

function packageGuide(type: PackageTypeName, t: GuideTarget): IntegrationGuide {
  const label = PACKAGE_TYPE_NAMES[type]
  const repos = SAMPLE_REPOSITORIES[type]
  const upstream = DEFAULT_UPSTREAMS[type]
  const role = (rclass: string) =>
    rclass === 'local'
      ? 'your own packages'
      : rclass === 'remote'
        ? `a cache of ${upstream ?? 'the upstream'}`
        : 'both behind one URL'
  const client = repos.find((r) => r.rclass === 'virtual') ?? repos[0]
  const snippets: SetMeUpSnippet[] = client
    ? setMeUpSnippets({
        baseUrl: t.baseUrl,
        repoKey: client.key,
        packageType: type,
        rclass: client.rclass,
        user: t.user,
        token: null,
      })
    : []
  return {
    does: `Hosts ${label} packages on Trove${upstream ? ` and caches ${upstream}` : ''}, for ${label}'s own client.`,
    steps: [
      { text: `Set Up creates ${repos.map((r) => `${r.key} (${role(r.rclass)})`).join(', ')}.` },
      TOKEN_STEP,
      ...snippets.map((s) => ({
        text: `${s.title}:`,
        snippet: { ...(s.file ? { file: s.file } : {}), language: s.language, text: s.text },
      })),
    ],
  }
}

function ssoGuide(kind: 'oidc' | 'saml', t: GuideTarget): IntegrationGuide {
  if (kind === 'oidc')
    return {
      does: 'Signs people in to Trove with your OpenID Connect provider; a user is created at the first sign-in.',
      steps: [
        {
          text: 'At the provider, register Trove as a confidential client with this redirect URL:',
          snippet: { language: 'shell', text: `${t.baseUrl}/ui/api/v1/ui/auth/oauth/callback\n` },
        },
        { text: 'Set Up opens OAuth SSO: add a provider with its issuer URL, the client ID and secret, and Enabled on.' },
        { text: 'The login page then shows a button for the provider.' },
      ],
    }
  return {
    does: 'Signs people in to Trove with your SAML identity provider.',
    steps: [
      {
        text: "Give the identity provider Trove's metadata (its entity id and assertion consumer service):",
        snippet: { language: 'shell', text: `${t.baseUrl}/ui/api/v1/ui/auth/saml/metadata\n` },
      },
      { text: "Set Up opens SAML SSO: give the provider's SAML login URL, entity ID and certificate, and Enabled on." },
      { text: 'The login page then offers SSO sign-in.' },
    ],
  }
}

/** The guide of a catalogue item, by its id; undefined for an id the catalogue does not have. */
export function integrationGuide(id: string, label: string, t: GuideTarget): IntegrationGuide | undefined {
  const target = { ...t, baseUrl: t.baseUrl.replace(/\/+$/, '') }
  if (id in CI_NUMBER_VARIABLES) return ciGuide(id as CiId, target)
  if (id.startsWith('git-')) return gitGuide(id, label)
  if (id.startsWith('ide-')) return ideGuide(label, target)
  if (id.startsWith('package-')) {
    const type = id.slice('package-'.length)
    return type in PACKAGE_TYPE_NAMES ? packageGuide(type as PackageTypeName, target) : undefined
  }
  switch (id) {
    case 'cloud-kubernetes':
      return kubernetesGuide(label, target)
    case 'cloud-aks':
      return kubernetesGuide(label, target, 'az aks get-credentials --resource-group <GROUP> --name <CLUSTER>')
    case 'cloud-gke':
      return kubernetesGuide(label, target, 'gcloud container clusters get-credentials <CLUSTER> --region <REGION>')
    case 'cloud-ecs':
      return ecsGuide(target)
    case 'auth-oidc':
      return ssoGuide('oidc', target)
    case 'auth-saml':
      return ssoGuide('saml', target)
    default:
      return undefined
  }
}
