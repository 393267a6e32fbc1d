import { describe, expect, it } from 'vitest'
import { setMeUpSnippets, TOKEN_PLACEHOLDER } from './setMeUp.js'

const target = {
  baseUrl: 'https://trove.example.com/',
  repoKey: 'npm-remote',
  packageType: 'npm',
  rclass: 'remote',
  user: 'ada',
  token: null,
} as const

describe('set-me-up snippets', () => {
  it('puts the placeholder where the token goes until there is one, and offers no publishing on a remote', () => {
    const snippets = setMeUpSnippets(target)
    expect(snippets.map((s) => s.id)).toEqual(['npmrc', 'npm-install'])
    expect(snippets[0]?.text).toBe(
      `registry=https://trove.example.com/api/npm/npm-remote/\n//trove.example.com/api/npm/npm-remote/:_authToken=${TOKEN_PLACEHOLDER}\n`,
    )
    const local = setMeUpSnippets({ ...target, repoKey: 'npm-local', rclass: 'local', token: 'tok' })
    expect(local.map((s) => s.id)).toEqual(['npmrc', 'npm-install', 'npm-publish'])
    expect(local[0]?.text).toContain(':_authToken=tok\n')
  })

  it('escapes what a user name or token may hold for the file it goes into', () => {
    const pip = setMeUpSnippets({ ...target, packageType: 'pypi', user: 'ada@example.com', token: null })
    expect(pip[0]?.text).toBe(
      `[global]\nindex-url = https://ada%40example.com:${TOKEN_PLACEHOLDER}@trove.example.com/api/pypi/npm-remote/simple\n`,
    )
    const maven = setMeUpSnippets({ ...target, packageType: 'maven', user: 'a&b', token: 'x<y' })
    expect(maven[0]?.text).toContain('<username>a&amp;b</username>\n      <password>x&lt;y</password>')
    expect(maven[0]?.text).toContain('<mirrorOf>*</mirrorOf>')
    const docker = setMeUpSnippets({ ...target, packageType: 'docker', user: "o'hara", token: 't' })
    expect(docker[0]?.text).toContain(`echo 't' | docker login --username 'o'\\''hara' --password-stdin trove.example.com`)
  })

  it('tells Docker users about plain HTTP, and Podman and skopeo skip TLS verification there', () => {
    const docker = setMeUpSnippets({ ...target, baseUrl: 'http://127.0.0.1:8082', packageType: 'docker', rclass: 'local' })
    expect(docker.map((s) => [s.id, s.title])).toEqual([
      ['docker', 'Docker'],
      ['podman', 'Podman'],
      ['skopeo', 'Skopeo'],
    ])
    expect(docker[0]?.text.split('\n')[0]).toContain('insecure-registries')
    const image = '127.0.0.1:8082/npm-remote/<IMAGE>:<TAG>'
    expect(docker[1]?.text).toBe(
      [
        `echo '${TOKEN_PLACEHOLDER}' | podman login --tls-verify=false --username 'ada' --password-stdin 127.0.0.1:8082`,
        `podman tag <IMAGE>:<TAG> ${image}`,
        `podman push --tls-verify=false ${image}`,
        `podman pull --tls-verify=false ${image}`,
        '',
      ].join('\n'),
    )
    expect(docker[2]?.text).toContain(`skopeo copy --dest-tls-verify=false oci-archive:<IMAGE>.tar docker://${image}`)
    const https = setMeUpSnippets({ ...target, packageType: 'docker', rclass: 'local' })
    expect(https.map((s) => s.text).join('')).not.toContain('tls-verify')
    expect(https[1]?.text).toContain('podman push trove.example.com/npm-remote/<IMAGE>:<TAG>\n')
    // A remote is only pulled from.
    const remote = setMeUpSnippets({ ...target, packageType: 'docker' })
    expect(remote[1]?.text.split('\n').map((line) => line.split(' ')[0])).toEqual(['echo', 'podman', ''])
    expect(remote[1]?.text).toContain('podman pull trove.example.com/npm-remote/<IMAGE>:<TAG>\n')
  })

  it('gives Go its credentials through ~/.netrc, and says that Go sends none over plain HTTP', () => {
    const go = setMeUpSnippets({
      ...target,
      packageType: 'go',
      repoKey: 'go-virtual',
      rclass: 'virtual',
      user: "o'hara",
      token: 't',
    })
    expect(go.map((s) => s.id)).toEqual(['go-netrc', 'go-env', 'go-get', 'go-publish', 'go-publish-tag'])
    expect(go[0]?.text).toContain(`printf 'machine %s login %s password %s\\n' 'trove.example.com' 'o'\\''hara' 't' >> ~/.netrc`)
    expect(go[1]?.text.split('\n')[0]).toBe('export GOPROXY=https://trove.example.com/api/go/go-virtual')
    expect(go[1]?.text).toContain('export GONOSUMDB=<PACKAGE>\n')
    expect(go[3]?.text).toContain('"https://trove.example.com/api/go/go-virtual/<PACKAGE>/@v/<VERSION>.zip"')
    expect(go[4]?.text).toMatch(
      /^git archive --format=zip <VERSION> \| curl --fail -u .* -T - "https:\/\/trove.example.com\/api\/go\/go-virtual\/<PACKAGE>\/@v\/<VERSION>.zip"\n$/,
    )
    const plain = setMeUpSnippets({ ...target, baseUrl: 'http://127.0.0.1:8082', packageType: 'go', rclass: 'remote' })
    expect(plain.map((s) => s.id)).toEqual(['go-netrc', 'go-env', 'go-get'])
    expect(plain[1]?.text.split('\n')[0]).toMatch(/^# Trove is reached over plain HTTP: Go sends credentials over HTTPS only/)
  })
  it('adds a NuGet source for nuget (v2 feed) and dotnet (v3 index), and pushes with user:token as the API key', () => {
    const nuget = setMeUpSnippets({ ...target, packageType: 'nuget', repoKey: 'nuget-local', rclass: 'local', token: 't' })
    expect(nuget.map((s) => s.id)).toEqual(['nuget-source', 'nuget-install', 'dotnet-source', 'nuget-push'])
    expect(nuget[0]?.text).toBe(
      "nuget sources add -Name nuget-local -Source https://trove.example.com/api/nuget/nuget-local -Username 'ada' -Password 't'\n",
    )
    expect(nuget[2]?.text).toContain('dotnet nuget add source https://trove.example.com/api/nuget/v3/nuget-local/index.json')
    expect(nuget[2]?.text).not.toContain('--allow-insecure-connections')
    expect(nuget[3]?.text.split('\n')[0]).toBe("nuget push <FILE>.nupkg -Source nuget-local -ApiKey 'ada:t'")
    const plain = setMeUpSnippets({ ...target, baseUrl: 'http://127.0.0.1:8082', packageType: 'nuget' })
    expect(plain.map((s) => s.id)).toEqual(['nuget-source', 'nuget-install', 'dotnet-source'])
    expect(plain[2]?.text).toContain('--store-password-in-clear-text --allow-insecure-connections\n')
    expect(plain[0]?.text).toContain(`-Password '${TOKEN_PLACEHOLDER}'`)
  })
})
