/**
 * Set-me-up (shell §4.3, packages §7 `ui/setMeUp`): the exact client configuration for one
 * repository, for the console's panel and for the tests that run each real client with it. No zod:
 * the console's panel stays light.
 */
import { clientUrlOf, type PackageTypeName, type RepoClassName } from './repositoryConstants.js'

/** What the snippets are written for. */
export interface SetMeUpTarget {
  /** Where clients reach Trove, without a trailing slash (`GET ui/setMeUp`'s baseUrl). */
  baseUrl: string
  repoKey: string
  packageType: PackageTypeName
  rclass: RepoClassName
  /** The signed-in user's name. */
  user: string
  /** An access token to put in, or null for the placeholder. */
  token: string | null
}

export interface SetMeUpSnippet {
  id: string
  title: string
  /** Where the text goes: a file to write it into, or absent for commands to run in a shell. */
  file?: string
  /** The file's language, for highlighting: ini, xml, or shell for commands. */
  language: 'ini' | 'xml' | 'shell'
  text: string
}

/** Stands for the token until the user creates one. */
export const TOKEN_PLACEHOLDER = '<TOKEN>'
/** The parts of a command the user fills in: `<IMAGE>`, `<TAG>`, `<FILE>`, `<PATH>`, `<PACKAGE>`. */
export const SNIPPET_PLACEHOLDERS = ['<IMAGE>', '<TAG>', '<FILE>', '<PATH>', '<PACKAGE>'] as const

/** A token's lifetime when the panel creates one: 30 days. */
export const SET_ME_UP_TOKEN_EXPIRES_IN = 30 * 24 * 60 * 60

const canDeploy = (t: SetMeUpTarget) => t.rclass !== 'remote'
const secret = (t: SetMeUpTarget) => t.token ?? TOKEN_PLACEHOLDER
/** Single-quoted for a POSIX shell. */
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`
const xml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

function npm(t: SetMeUpTarget): SetMeUpSnippet[] {
  const registry = clientUrlOf(t.baseUrl, 'npm', t.repoKey)
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'npmrc',
      title: 'Point npm at the repository',
      file: '.npmrc',
      language: 'ini',
      text: `registry=${registry}\n${registry.replace(/^https?:/, '')}:_authToken=${secret(t)}\n`,
    },
    { id: 'npm-install', title: 'Install a package', language: 'shell', text: 'npm install <PACKAGE>\n' },
  ]
  if (canDeploy(t))
    snippets.push({ id: 'npm-publish', title: 'Publish the package in this folder', language: 'shell', text: 'npm publish\n' })
  return snippets
}

function pypi(t: SetMeUpTarget): SetMeUpSnippet[] {
  const url = new URL(clientUrlOf(t.baseUrl, 'pypi', t.repoKey))
  url.username = t.user
  url.password = secret(t)
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'pip-conf',
      title: 'Point pip at the repository',
      file: 'pip.conf',
      language: 'ini',
      // URL's setters percent-encode what a user name or token may hold; the placeholder's <> too.
      text: `[global]\nindex-url = ${url.href.replace(encodeURIComponent(TOKEN_PLACEHOLDER), TOKEN_PLACEHOLDER)}\n`,
    },
    { id: 'pip-install', title: 'Install a package', language: 'shell', text: 'pip install <PACKAGE>\n' },
  ]
  if (canDeploy(t))
    snippets.push(
      {
        id: 'pypirc',
        title: 'Let twine upload to the repository',
        file: '.pypirc',
        language: 'ini',
        text: `[distutils]\nindex-servers = ${t.repoKey}\n\n[${t.repoKey}]\nrepository = ${t.baseUrl}/api/pypi/${t.repoKey}\nusername = ${t.user}\npassword = ${secret(t)}\n`,
      },
      {
        id: 'twine-upload',
        title: 'Upload what you built',
        language: 'shell',
        text: `twine upload --repository ${t.repoKey} dist/*\n`,
      },
    )
  return snippets
}

function docker(t: SetMeUpTarget): SetMeUpSnippet[] {
  const host = new URL(t.baseUrl).host
  const insecure = new URL(t.baseUrl).protocol === 'http:'
  const image = `${host}/${t.repoKey}/<IMAGE>:<TAG>`
  const login = (tool: string, flag = '') =>
    `echo ${quote(secret(t))} | ${tool} login${flag} --username ${quote(t.user)} --password-stdin ${host}`
  const lines = [login('docker')]
  if (canDeploy(t)) lines.push(`docker tag <IMAGE>:<TAG> ${image}`, `docker push ${image}`)
  lines.push(`docker pull ${image}`)
  const tls = insecure ? ' --tls-verify=false' : ''
  // Over plain HTTP Podman, like skopeo, is told per command; Docker's daemon is told once (the comment below).
  const podman = [login('podman', tls)]
  if (canDeploy(t)) podman.push(`podman tag <IMAGE>:<TAG> ${image}`, `podman push${tls} ${image}`)
  podman.push(`podman pull${tls} ${image}`)
  const skopeo = [login('skopeo', tls)]
  if (canDeploy(t))
    skopeo.push(`skopeo copy${insecure ? ' --dest-tls-verify=false' : ''} oci-archive:<IMAGE>.tar docker://${image}`)
  skopeo.push(`skopeo copy${insecure ? ' --src-tls-verify=false' : ''} docker://${image} oci-archive:<IMAGE>-pulled.tar`)
  const snippets: SetMeUpSnippet[] = [
    { id: 'docker', title: 'Docker', language: 'shell', text: `${lines.join('\n')}\n` },
    { id: 'podman', title: 'Podman', language: 'shell', text: `${podman.join('\n')}\n` },
    { id: 'skopeo', title: 'Skopeo', language: 'shell', text: `${skopeo.join('\n')}\n` },
  ]
  if (insecure)
    snippets[0] = {
      ...(snippets[0] as SetMeUpSnippet),
      text: `# Trove is reached over plain HTTP: list ${host} under "insecure-registries" in Docker's daemon.json first.\n${(snippets[0] as SetMeUpSnippet).text}`,
    }
  return snippets
}

function maven(t: SetMeUpTarget): SetMeUpSnippet[] {
  const url = `${t.baseUrl}/artifactory/${t.repoKey}`
  const server = `    <server>\n      <id>${xml(t.repoKey)}</id>\n      <username>${xml(t.user)}</username>\n      <password>${xml(secret(t))}</password>\n    </server>`
  // A local repository is only deployed to; a remote or virtual one also resolves everything.
  const mirror =
    t.rclass === 'local'
      ? ''
      : `\n  <mirrors>\n    <mirror>\n      <id>${xml(t.repoKey)}</id>\n      <mirrorOf>*</mirrorOf>\n      <url>${xml(url)}</url>\n    </mirror>\n  </mirrors>`
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'settings-xml',
      title: 'Maven settings',
      file: 'settings.xml',
      language: 'xml',
      text: `<settings>\n  <servers>\n${server}\n  </servers>${mirror}\n</settings>\n`,
    },
  ]
  if (canDeploy(t)) {
    const repository = (tag: string) => `  <${tag}>\n    <id>${xml(t.repoKey)}</id>\n    <url>${xml(url)}</url>\n  </${tag}>`
    snippets.push(
      {
        id: 'distribution-management',
        title: "Deploy to the repository: in the project's pom.xml",
        file: 'pom.xml',
        language: 'xml',
        text: `<distributionManagement>\n${repository('repository')}\n${repository('snapshotRepository')}\n</distributionManagement>\n`,
      },
      { id: 'mvn-deploy', title: 'Deploy', language: 'shell', text: 'mvn deploy\n' },
    )
  }
  return snippets
}

function generic(t: SetMeUpTarget): SetMeUpSnippet[] {
  const url = `${t.baseUrl}/artifactory/${t.repoKey}/<PATH>`
  const user = quote(`${t.user}:${secret(t)}`)
  const lines = canDeploy(t) ? [`curl --fail -u ${user} -T <FILE> "${url}"`] : []
  lines.push(`curl --fail -u ${user} -o <FILE> "${url}"`)
  return [
    {
      id: 'curl',
      title: canDeploy(t) ? 'Upload and download with curl' : 'Download with curl',
      language: 'shell',
      text: `${lines.join('\n')}\n`,
    },
  ]
}

function helm(t: SetMeUpTarget): SetMeUpSnippet[] {
  const url = clientUrlOf(t.baseUrl, 'helm', t.repoKey)
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'helm-repo',
      title: 'Add the repository and install a chart',
      language: 'shell',
      text: `echo ${quote(secret(t))} | helm repo add ${t.repoKey} ${url} --username ${quote(t.user)} --password-stdin\nhelm repo update\nhelm install <RELEASE> ${t.repoKey}/<CHART>\n`,
    },
  ]
  if (canDeploy(t)) {
    snippets.push({
      id: 'helm-upload',
      title: 'Upload a chart',
      language: 'shell',
      text: `helm package <CHART_DIR>\ncurl --fail -u ${quote(`${t.user}:${secret(t)}`)} -T <CHART>-<VERSION>.tgz "${url}/<CHART>-<VERSION>.tgz"\n`,
    })
  }
  return snippets
}

function go(t: SetMeUpTarget): SetMeUpSnippet[] {
  const proxy = clientUrlOf(t.baseUrl, 'go', t.repoKey)
  // The go command sends credentials to a proxy over HTTPS only (from ~/.netrc; never in a plain-HTTP URL).
  const insecure = new URL(t.baseUrl).protocol === 'http:'
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'go-netrc',
      title: 'Give Go your credentials: it reads ~/.netrc (or the file NETRC names)',
      language: 'shell',
      text: `touch ~/.netrc && chmod 600 ~/.netrc\nprintf 'machine %s login %s password %s\\n' ${quote(new URL(t.baseUrl).hostname)} ${quote(t.user)} ${quote(secret(t))} >> ~/.netrc\n`,
    },
    {
      id: 'go-env',
      title: 'Point Go at the repository',
      language: 'shell',
      text: [
        ...(insecure
          ? [
              '# Trove is reached over plain HTTP: Go sends credentials over HTTPS only, so put Trove behind TLS or let anonymous users read this repository.',
            ]
          : []),
        `export GOPROXY=${proxy}`,
        '# Your own modules are not in the public checksum database: let Go skip it for them.',
        '# (GOPRIVATE would also send them around Trove to their VCS, unless GONOPROXY=none.)',
        'export GONOSUMDB=<PACKAGE>',
        '# Let go add what it resolves to go.mod and go.sum.',
        'export GOFLAGS=-mod=mod',
        '',
      ].join('\n'),
    },
    { id: 'go-get', title: 'Add a module to your project', language: 'shell', text: 'go get <PACKAGE>\n' },
  ]
  if (canDeploy(t))
    snippets.push(
      {
        id: 'go-publish',
        title: 'Publish a module zip (every file under <module>@<version>/; upper-case letters in the URL as !x)',
        language: 'shell',
        text: `curl --fail -u ${quote(`${t.user}:${secret(t)}`)} -T <FILE> "${proxy}/<PACKAGE>/@v/<VERSION>.zip"\n`,
      },
      {
        id: 'go-publish-tag',
        title: 'Or publish a git tag of the module in this folder (Trove makes the module zip from the tree)',
        language: 'shell',
        text: `git archive --format=zip <VERSION> | curl --fail -u ${quote(`${t.user}:${secret(t)}`)} -T - "${proxy}/<PACKAGE>/@v/<VERSION>.zip"\n`,
      },
    )
  return snippets
}

function cargo(t: SetMeUpTarget): SetMeUpSnippet[] {
  const registry = `${t.baseUrl}/api/cargo/${t.repoKey}`
  const env = `CARGO_REGISTRIES_${t.repoKey.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_TOKEN`
  const config = [`[registries.${t.repoKey}]`, `index = "sparse+${registry}/index/"`, 'credential-provider = "cargo:token"']
  if (t.rclass !== 'local') {
    config.push(
      '',
      '# Resolve crates.io dependencies through this repository too.',
      '[source.crates-io]',
      `replace-with = "${t.repoKey}"`,
    )
  }
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'cargo-config',
      title: 'Add the registry',
      file: '~/.cargo/config.toml',
      language: 'ini',
      text: `${config.join('\n')}\n`,
    },
    {
      id: 'cargo-login',
      title: 'Give Cargo your token (or set it in the environment)',
      language: 'shell',
      text: `echo ${quote(secret(t))} | cargo login --registry ${t.repoKey}\n# or: export ${env}=${quote(secret(t))}\n`,
    },
    {
      id: 'cargo-add',
      title: 'Add a crate to your project',
      language: 'shell',
      text: `cargo add <PACKAGE> --registry ${t.repoKey}\n`,
    },
  ]
  if (canDeploy(t))
    snippets.push({
      id: 'cargo-publish',
      title: 'Publish the crate in this folder',
      language: 'shell',
      text: `cargo publish --registry ${t.repoKey}\n`,
    })
  return snippets
}

function gems(t: SetMeUpTarget): SetMeUpSnippet[] {
  const url = clientUrlOf(t.baseUrl, 'gems', t.repoKey)
  const withCredentials = new URL(`${url}/`)
  withCredentials.username = t.user
  withCredentials.password = secret(t)
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'gem-install',
      title: 'Install gems with gem',
      language: 'shell',
      text: `gem sources --add ${quote(withCredentials.href)}\ngem install <GEM>\n`,
    },
    {
      id: 'bundler',
      title: 'Or with Bundler: give it your credentials, then name the source in the Gemfile',
      language: 'shell',
      text: `bundle config set --global ${url}/ ${quote(`${t.user}:${secret(t)}`)}\necho 'source "${url}/"' >> Gemfile\nbundle install\n`,
    },
  ]
  if (canDeploy(t))
    snippets.push({
      id: 'gem-push',
      title: 'Push a gem (the API key comes from Trove)',
      language: 'shell',
      text: `mkdir -p ~/.gem && curl --fail -u ${quote(`${t.user}:${secret(t)}`)} ${url}/api/v1/api_key.yaml > ~/.gem/credentials && chmod 600 ~/.gem/credentials\ngem push <GEM>-<VERSION>.gem --host ${url}\n`,
    })
  return snippets
}

function composer(t: SetMeUpTarget): SetMeUpSnippet[] {
  const url = clientUrlOf(t.baseUrl, 'composer', t.repoKey)
  // Composer keys credentials by host (with the port when there is one), as it sends them.
  const host = new URL(t.baseUrl).host
  // Composer refuses plain-HTTP repositories unless secure-http is off for the project.
  const insecure = new URL(t.baseUrl).protocol === 'http:' ? 'composer config secure-http false\n' : ''
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'composer-auth',
      title: 'Give Composer your credentials (kept in the global auth.json)',
      language: 'shell',
      text: `composer config --global http-basic.${host} ${quote(t.user)} ${quote(secret(t))}\n`,
    },
    {
      id: 'composer-repo',
      title: 'Add the repository to your project and require a package',
      language: 'shell',
      text: `composer config repositories.${t.repoKey} composer ${url}\n${insecure}composer require <PACKAGE>\n`,
    },
  ]
  if (canDeploy(t))
    snippets.push({
      id: 'composer-upload',
      title: 'Upload a package zip (composer.json at its root; add ?version=<VERSION> when it names no version)',
      language: 'shell',
      text: `curl --fail -u ${quote(`${t.user}:${secret(t)}`)} -T <FILE>.zip "${url}/<FILE>.zip"\n`,
    })
  return snippets
}

function debian(t: SetMeUpTarget): SetMeUpSnippet[] {
  const url = `${t.baseUrl}/artifactory/${t.repoKey}`
  const { host, pathname, protocol } = new URL(url)
  // apt sends auth.conf's credentials over plain HTTP only to a machine line that says http://.
  const machine = `${protocol === 'http:' ? 'http://' : ''}${host}${pathname}`
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'debian-key',
      title: "Trust the repository's signing key",
      language: 'shell',
      text: `curl -fsSL ${t.baseUrl}/artifactory/api/gpg/key/public -o /etc/apt/keyrings/trove.asc\n`,
    },
    {
      id: 'debian-auth',
      title: 'Give apt your credentials',
      file: '/etc/apt/auth.conf.d/trove.conf',
      language: 'ini',
      text: `machine ${machine}\nlogin ${t.user}\npassword ${secret(t)}\n`,
    },
    {
      id: 'debian-sources',
      title: 'Add the repository (name your distribution and components)',
      file: '/etc/apt/sources.list.d/trove.list',
      language: 'ini',
      text: `deb [signed-by=/etc/apt/keyrings/trove.asc] ${url} <DISTRIBUTION> <COMPONENT>\n`,
    },
    {
      id: 'debian-install',
      title: 'Install a package',
      language: 'shell',
      text: 'apt-get update && apt-get install <PACKAGE>\n',
    },
  ]
  if (canDeploy(t))
    snippets.push({
      id: 'debian-upload',
      title: 'Upload a package to a distribution and component',
      language: 'shell',
      text: `curl --fail -u ${quote(`${t.user}:${secret(t)}`)} -T <FILE>.deb "${url}/pool/<FILE>.deb;deb.distribution=<DISTRIBUTION>;deb.component=<COMPONENT>"\n`,
    })
  return snippets
}

function nuget(t: SetMeUpTarget): SetMeUpSnippet[] {
  const v2 = `${t.baseUrl}/api/nuget/${t.repoKey}`
  const v3 = clientUrlOf(t.baseUrl, 'nuget', t.repoKey)
  // The API key Trove takes is a token or user:password; user:token works for both.
  const apiKey = quote(`${t.user}:${secret(t)}`)
  const insecure = new URL(t.baseUrl).protocol === 'http:' ? ' --allow-insecure-connections' : ''
  const snippets: SetMeUpSnippet[] = [
    {
      id: 'nuget-source',
      title: 'Add the repository as a package source (NuGet 2.x on mono reads its v2 feed)',
      language: 'shell',
      text: `nuget sources add -Name ${t.repoKey} -Source ${v2} -Username ${quote(t.user)} -Password ${quote(secret(t))}\n`,
    },
    {
      id: 'nuget-install',
      title: 'Install a package',
      language: 'shell',
      text: `nuget install <PACKAGE> -Source ${t.repoKey}\n`,
    },
    {
      id: 'dotnet-source',
      title: insecure
        ? 'Or with the dotnet CLI (the v3 protocol; plain HTTP needs --allow-insecure-connections, .NET 9 SDK and later)'
        : 'Or with the dotnet CLI (the v3 protocol)',
      language: 'shell',
      text: `dotnet nuget add source ${v3} --name ${t.repoKey} --username ${quote(t.user)} --password ${quote(secret(t))} --store-password-in-clear-text${insecure}\ndotnet add package <PACKAGE> --source ${t.repoKey}\n`,
    },
  ]
  if (canDeploy(t))
    snippets.push({
      id: 'nuget-push',
      title: 'Push a package (the API key is your user name and token)',
      language: 'shell',
      text: `nuget push <FILE>.nupkg -Source ${t.repoKey} -ApiKey ${apiKey}\n# or: dotnet nuget push <FILE>.nupkg --source ${t.repoKey} --api-key ${apiKey}\n`,
    })
  return snippets
}

const BY_TYPE: Record<PackageTypeName, (t: SetMeUpTarget) => SetMeUpSnippet[]> = {
  npm,
  pypi,
  docker,
  maven,
  generic,
  helm,
  go,
  cargo,
  gems,
  composer,
  debian,
  nuget,
}

/** The snippets for a repository, in the order a user follows them. */
export function setMeUpSnippets(target: SetMeUpTarget): SetMeUpSnippet[] {
  return BY_TYPE[target.packageType]({ ...target, baseUrl: target.baseUrl.replace(/\/+$/, '') })
}
