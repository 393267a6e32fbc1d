import fs from 'node:fs'
import path from 'node:path'
import type { PackageTypeName, RepoClassName } from '@trove/contracts/repositoryConstants'
import { SET_ME_UP_TOKEN_EXPIRES_IN, type SetMeUpSnippet, setMeUpSnippets } from '@trove/contracts/setMeUp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { writeOciImage } from '../../../test/ociImage.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

/** Debian's clients first: its pip, twine and Python are the ones with the offline build tools. */
const PATH = `/usr/bin:${process.env.PATH ?? ''}`
/** Debian's Maven plugins (libmaven-deploy-plugin-java) are the only ones available offline. */
const DEBIAN_MAVEN_REPO = '/usr/share/maven-repo'

/**
 * Set-me-up's snippets, each run with the real client it configures: the files written as the panel
 * shows them, the commands run as shown with only the `<IMAGE>`-style parts filled in. A snippet
 * that does not work fails here.
 */
describe('set-me-up snippets with the real clients', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string

  /** What the panel does: asks ui/setMeUp about the repository, then writes the snippets. */
  const snippetsFor = async (repoKey: string) => {
    const res = await fetch(`${base}/ui/api/v1/ui/setMeUp?repoKey=${repoKey}`, { headers: sessionHeaders(admin) })
    expect(res.status).toBe(200)
    const info = (await res.json()) as {
      baseUrl: string
      repository: { key: string; packageType: PackageTypeName; rclass: RepoClassName }
    }
    const snippets = setMeUpSnippets({
      baseUrl: info.baseUrl,
      ...info.repository,
      repoKey: info.repository.key,
      user: 'admin',
      token,
    })
    return (id: string): SetMeUpSnippet => {
      const found = snippets.find((s) => s.id === id)
      if (!found) throw new Error(`no snippet ${id} for ${repoKey}: ${snippets.map((s) => s.id).join(', ')}`)
      return found
    }
  }
  const fill = (text: string, values: Record<string, string>) =>
    Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`<${k}>`, v), text)
  const shell = async (text: string, cwd: string, env: Record<string, string> = {}) => {
    const result = await run('bash', ['-euc', text], { cwd, env: { PATH, HOME: work, ...env } })
    expect(result.code, `${text}\n${result.stdout}\n${result.stderr}`).toBe(0)
    return result
  }

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    work = tempDir('trove-setmeup-')
    // The panel's token button: a deploy-scoped token for the signed-in user.
    const created = await fetch(`${base}/ui/api/v1/ui/userIdentifyToken/admin`, {
      method: 'POST',
      headers: { ...sessionHeaders(admin), 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: SET_ME_UP_TOKEN_EXPIRES_IN, scope: 'deploy', description: 'Set Me Up' }),
    })
    expect(created.status).toBe(200)
    token = ((await created.json()) as { access_token: string }).access_token
    for (const type of ['npm', 'pypi', 'docker', 'maven', 'generic'] as const) {
      await createRepo(t.fastify, admin, `${type}-local`, { rclass: 'local', packageType: type })
    }
    await createRepo(t.fastify, admin, 'npm-virtual', {
      rclass: 'virtual',
      packageType: 'npm',
      repositories: ['npm-local'],
      defaultDeploymentRepo: 'npm-local',
    })
    await createRepo(t.fastify, admin, 'pypi-virtual', { rclass: 'virtual', packageType: 'pypi', repositories: ['pypi-local'] })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('npm: publishes with the local .npmrc, installs through the virtual one', async () => {
    const dir = path.join(work, 'npm')
    writeFiles(dir, {
      'lib/package.json': JSON.stringify({ name: 'setmeup-demo', version: '1.0.0', main: 'index.js' }),
      'lib/index.js': 'module.exports = 42\n',
      'app/package.json': JSON.stringify({ name: 'app', version: '1.0.0', private: true }),
    })
    const env = (userconfig: string) => ({
      npm_config_userconfig: userconfig,
      npm_config_cache: path.join(dir, 'cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    })
    const local = await snippetsFor('npm-local')
    fs.writeFileSync(path.join(dir, 'local.npmrc'), local('npmrc').text)
    await shell(local('npm-publish').text, path.join(dir, 'lib'), env(path.join(dir, 'local.npmrc')))
    const virtual = await snippetsFor('npm-virtual')
    fs.writeFileSync(path.join(dir, 'virtual.npmrc'), virtual('npmrc').text)
    await shell(
      fill(virtual('npm-install').text, { PACKAGE: 'setmeup-demo' }),
      path.join(dir, 'app'),
      env(path.join(dir, 'virtual.npmrc')),
    )
    expect(fs.readFileSync(path.join(dir, 'app/node_modules/setmeup-demo/index.js'), 'utf8')).toBe('module.exports = 42\n')
  })

  it('PyPI: twine uploads with the .pypirc, pip installs with the pip.conf', async () => {
    const dir = path.join(work, 'pypi')
    writeFiles(dir, {
      'proj/pyproject.toml':
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "setmeup-demo"\nversion = "0.1.0"\n',
      'proj/src/setmeup_demo/__init__.py': 'ANSWER = 42\n',
    })
    const built = await run('/usr/bin/python3', ['-m', 'build', '--no-isolation', '--wheel', '--outdir', 'dist', '.'], {
      cwd: path.join(dir, 'proj'),
      env: { PATH },
    })
    expect(built.code, built.stderr).toBe(0)
    const local = await snippetsFor('pypi-local')
    // twine reads ~/.pypirc: HOME is the work folder.
    fs.writeFileSync(path.join(work, local('pypirc').file as string), local('pypirc').text)
    await shell(local('twine-upload').text, path.join(dir, 'proj'), { TWINE_NON_INTERACTIVE: '1' })
    const virtual = await snippetsFor('pypi-virtual')
    fs.writeFileSync(path.join(dir, 'pip.conf'), virtual('pip-conf').text)
    await shell(fill(virtual('pip-install').text, { PACKAGE: 'setmeup-demo==0.1.0' }), dir, {
      PIP_CONFIG_FILE: path.join(dir, 'pip.conf'),
      PIP_TARGET: path.join(dir, 'site'),
      PIP_NO_CACHE_DIR: '1',
      PIP_DISABLE_PIP_VERSION_CHECK: '1',
    })
    expect(fs.readFileSync(path.join(dir, 'site/setmeup_demo/__init__.py'), 'utf8')).toBe('ANSWER = 42\n')
  })

  it('Docker: skopeo logs in, pushes and pulls with the lines shown', async () => {
    const dir = path.join(work, 'docker')
    const image = writeOciImage(dir, { content: 'hello from set-me-up', tag: '1.0' })
    const tar = await run('tar', ['-cf', path.join(dir, 'hello.tar'), '-C', image.layout, '.'], { cwd: dir })
    expect(tar.code, tar.stderr).toBe(0)
    const snippets = await snippetsFor('docker-local')
    const auth = { REGISTRY_AUTH_FILE: path.join(dir, 'auth.json') }
    await shell(fill(snippets('skopeo').text, { IMAGE: 'hello', TAG: '1.0' }), dir, auth)
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'auth.json'), 'utf8')).auths).toHaveProperty(new URL(base).host)
    expect(fs.statSync(path.join(dir, 'hello-pulled.tar')).size).toBeGreaterThan(0)
    const tags = await fetch(`${base}/v2/docker-local/hello/tags/list`, { headers: { authorization: `Bearer ${token}` } })
    expect(await tags.json()).toMatchObject({ tags: ['1.0'] })
    // The Docker lines name the same registry and image.
    expect(snippets('docker').text).toContain(`docker push ${new URL(base).host}/docker-local/<IMAGE>:<TAG>`)
  })

  it('Maven: deploys with the settings.xml and the distributionManagement shown', async () => {
    const dir = path.join(work, 'maven')
    fs.cpSync(DEBIAN_MAVEN_REPO, path.join(dir, 'm2'), { recursive: true, dereference: true })
    const snippets = await snippetsFor('maven-local')
    writeFiles(dir, {
      'settings.xml': snippets('settings-xml').text,
      'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>setmeup-demo</artifactId>
  <version>1.0</version>
  <packaging>pom</packaging>
${snippets('distribution-management').text}</project>
`,
    })
    // `mvn deploy` runs the whole build; offline only the deploy goal's plugin is at hand, and it
    // deploys by the same settings and distributionManagement.
    const deployed = await run(
      'mvn',
      [
        '-B',
        '-q',
        '-s',
        'settings.xml',
        `-Dmaven.repo.local=${path.join(dir, 'm2')}`,
        'org.apache.maven.plugins:maven-deploy-plugin:3.0.0:deploy',
      ],
      { cwd: dir, env: { PATH } },
    )
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0)
    const pom = await fetch(`${base}/artifactory/maven-local/com/example/setmeup-demo/1.0/setmeup-demo-1.0.pom`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(pom.status).toBe(200)
    expect(await pom.text()).toContain('<artifactId>setmeup-demo</artifactId>')
  })

  it('generic: curl uploads and downloads with the lines shown', async () => {
    const dir = path.join(work, 'generic')
    writeFiles(dir, { 'notes.txt': 'release notes\n' })
    const [upload, download] = (await snippetsFor('generic-local'))('curl').text.trim().split('\n') as [string, string]
    await shell(fill(upload, { FILE: 'notes.txt', PATH: 'docs/notes.txt' }), dir)
    await shell(fill(download, { FILE: 'copy.txt', PATH: 'docs/notes.txt' }), dir)
    expect(fs.readFileSync(path.join(dir, 'copy.txt'), 'utf8')).toBe('release notes\n')
  })

  it('helm: curl uploads a packaged chart with the line shown, and the index lists it', async () => {
    await createRepo(t.fastify, admin, 'helm-local', { rclass: 'local', packageType: 'helm' })
    const dir = path.join(work, 'helm')
    // What `helm package demo` writes (no Helm client is packaged here): the chart's folder, gzipped.
    writeFiles(dir, { 'demo/Chart.yaml': 'apiVersion: v2\nname: demo\nversion: 1.0.0\n', 'demo/values.yaml': '' })
    expect((await run('tar', ['-czf', 'demo-1.0.0.tgz', 'demo'], { cwd: dir })).code).toBe(0)
    const snippets = await snippetsFor('helm-local')
    const upload = snippets('helm-upload')
      .text.split('\n')
      .find((line) => line.startsWith('curl')) as string
    await shell(fill(upload, { CHART: 'demo', VERSION: '1.0.0' }), dir)
    const index = await fetch(`${base}/api/helm/helm-local/index.yaml`, { headers: { authorization: `Bearer ${token}` } })
    expect(await index.text()).toContain('- demo-1.0.0.tgz')
    // The repository line names the same URL the index is served at.
    expect(snippets('helm-repo').text).toContain(`helm repo add helm-local ${base}/api/helm/helm-local --username `)
  })

  it('gems: pushes with the API key line and installs with the gem sources line', async () => {
    await createRepo(t.fastify, admin, 'gems-local', { rclass: 'local', packageType: 'gems' })
    const dir = path.join(work, 'gems')
    writeFiles(dir, {
      'setmeup.gemspec':
        'Gem::Specification.new do |s|\n  s.name = "setmeup"\n  s.version = "1.0.0"\n  s.summary = "Set me up"\n  s.authors = ["Ada"]\n  s.files = ["lib/setmeup.rb"]\nend\n',
      'lib/setmeup.rb': 'module Setmeup; end\n',
    })
    const gemEnv = { HOME: dir, GEM_HOME: path.join(dir, 'gem-home'), GEM_PATH: path.join(dir, 'gem-home') }
    expect((await run('/usr/bin/gem', ['build', 'setmeup.gemspec'], { cwd: dir, env: gemEnv })).code).toBe(0)
    const snippets = await snippetsFor('gems-local')
    await shell(fill(snippets('gem-push').text, { GEM: 'setmeup', VERSION: '1.0.0' }), dir, gemEnv)
    await shell(fill(snippets('gem-install').text, { GEM: 'setmeup' }), dir, gemEnv)
    expect(fs.existsSync(path.join(dir, 'gem-home', 'gems', 'setmeup-1.0.0', 'lib', 'setmeup.rb'))).toBe(true)
  })
})
