import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { setMeUpSnippets } from '@trove/contracts/setMeUp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { ADMIN_PASSWORD, createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex')

/**
 * Helm chart repositories. No Helm client is packaged for Debian 12, so the tests speak the chart
 * repository format Helm documents (https://helm.sh/docs/topics/chart_repository/): `index.yaml`
 * with entries newest first, each version's `urls` (relative to the repository's URL) and `digest`
 * (the archive's sha256), the archives themselves, fetched with the repository's credentials. The
 * charts are real archives made as `helm package` makes them (tar and gzip of the chart's folder),
 * and curl uploads them as the set-me-up snippet says; where the snippet runs `helm package`, a
 * stand-in on the PATH does just that.
 */
describe('helm chart repositories', () => {
  let t: TestApp
  let upstream: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  const auth = () => `admin:${ADMIN_PASSWORD}`

  /** A chart folder in a folder of its own: `<name>/Chart.yaml`, values, templates, readme. */
  function chartDir(name: string, version: string, extra: Record<string, string> = {}, folder = name): string {
    const dir = path.join(work, `${name}-${version}-${crypto.randomBytes(3).toString('hex')}`)
    writeFiles(dir, {
      [`${folder}/Chart.yaml`]: `apiVersion: v2
name: ${name}
version: ${version}
appVersion: "1.16.0"
description: A demo chart for Trove
type: application
keywords: [demo, trove]
home: https://example.com/${name}
maintainers:
  - name: Ada Lovelace
    email: ada@example.com
dependencies:
  - name: redis
    version: "~17.0.0"
    repository: https://charts.example.com
annotations:
  artifacthub.io/license: Apache-2.0
`,
      [`${folder}/values.yaml`]: 'replicaCount: 1\n',
      [`${folder}/templates/configmap.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n',
      [`${folder}/README.md`]: `# ${name}\n\nThe readme of ${name} ${version}.\n`,
      ...extra,
    })
    return dir
  }

  /** A chart folder packaged as `helm package` does: a tar and gzip of the folder. */
  async function chart(name: string, version: string, extra: Record<string, string> = {}, folder = name): Promise<string> {
    const dir = chartDir(name, version, extra, folder)
    const file = path.join(dir, `${name}-${version}.tgz`)
    const packed = await run('tar', ['-czf', file, folder], { cwd: dir })
    expect(packed.code, packed.stderr).toBe(0)
    return file
  }

  /**
   * A folder holding a stand-in for `helm package <dir>` (Debian packages no Helm): the folder's
   * tar and gzip, named from its Chart.yaml as Helm names it.
   */
  function helmStandIn(): string {
    const bin = path.join(work, 'helm-bin')
    writeFiles(bin, {
      helm: `#!/bin/sh
set -eu
[ "$1" = package ] || { echo "this stand-in only packages" >&2; exit 2; }
dir=\${2%/}
name=$(sed -n 's/^name: *//p' "$dir/Chart.yaml")
version=$(sed -n 's/^version: *//p' "$dir/Chart.yaml")
tar -czf "$name-$version.tgz" -C "$(dirname "$dir")" "$(basename "$dir")"
`,
    })
    fs.chmodSync(path.join(bin, 'helm'), 0o755)
    return bin
  }

  const curl = (args: string[]) => run('curl', ['-sS', '-u', auth(), ...args], { cwd: work })
  const status = async (args: string[]) => Number((await curl(['-o', '/dev/null', '-w', '%{http_code}', ...args])).stdout)
  const index = async (repo: string, credentials = auth()) => {
    const res = await run('curl', ['-sS', '-f', '-u', credentials, `${base}/api/helm/${repo}/index.yaml`], { cwd: work })
    expect(res.code, res.stderr).toBe(0)
    return YAML.parse(res.stdout) as {
      apiVersion: string
      entries: Record<string, { version: string; urls: string[]; digest: string }[]>
    }
  }

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-helm-')
    await createRepo(t.fastify, admin, 'helm-local', { rclass: 'local', packageType: 'helm' })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await upstream?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('takes charts by PUT and by ChartMuseum upload, and lists them in index.yaml newest first with their digests', async () => {
    const first = await chart('demo', '0.1.0')
    expect(await status(['-T', first, `${base}/api/helm/helm-local/demo-0.1.0.tgz`])).toBe(201)
    const second = await chart('demo', '0.2.0')
    const posted = await curl(['-f', '-F', `chart=@${second}`, `${base}/api/helm/helm-local/api/charts`])
    expect(posted.code, posted.stderr).toBe(0)
    expect(JSON.parse(posted.stdout)).toMatchObject({ saved: true, name: 'demo', version: '0.2.0' })

    const doc = await index('helm-local')
    expect(doc.apiVersion).toBe('v1')
    const entries = doc.entries.demo ?? []
    expect(entries.map((e) => e.version)).toEqual(['0.2.0', '0.1.0'])
    expect(entries[1]).toMatchObject({
      name: 'demo',
      appVersion: '1.16.0',
      description: 'A demo chart for Trove',
      urls: ['demo-0.1.0.tgz'],
      digest: sha256(fs.readFileSync(first)),
      dependencies: [{ name: 'redis', version: '~17.0.0', repository: 'https://charts.example.com' }],
    })
    // Helm resolves a relative URL against the repository's and fetches it with the same credentials.
    const fetched = path.join(work, 'fetched.tgz')
    const got = await curl(['-f', '-o', fetched, new URL(entries[1]?.urls[0] ?? '', `${base}/api/helm/helm-local/`).href])
    expect(got.code, got.stderr).toBe(0)
    expect(fs.readFileSync(fetched)).toEqual(fs.readFileSync(first))
    // The same index by the repository's path, as the widespread layout serves it.
    expect((await curl(['-f', `${base}/artifactory/helm-local/index.yaml`])).stdout).toContain('demo-0.2.0.tgz')

    // What the packages browser shows: description, readme, licence, keywords and dependencies.
    const version = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.package_type', 'v.description', 'v.readme', 'v.licenses', 'v.id'])
      .where('p.name', '=', 'demo')
      .where('v.version', '=', '0.1.0')
      .executeTakeFirstOrThrow()
    expect(version).toMatchObject({ package_type: 'helm', description: 'A demo chart for Trove' })
    expect(version.readme).toContain('The readme of demo 0.1.0.')
    expect(JSON.parse(version.licenses)).toEqual(['Apache-2.0'])
    const deps = await t.app.db.kysely
      .selectFrom('package_dependencies')
      .selectAll()
      .where('version_id', '=', version.id)
      .execute()
    expect(deps.map((d) => [d.name, d.range])).toEqual([['redis', '~17.0.0']])
  })

  it('takes the same archive again (a retry) and refuses another one under a stored version with 409', async () => {
    const again = path.join(work, 'again.tgz')
    await curl(['-f', '-o', again, `${base}/api/helm/helm-local/demo-0.1.0.tgz`])
    expect(await status(['-T', again, `${base}/api/helm/helm-local/demo-0.1.0.tgz`])).toBe(201)
    const other = await chart('demo', '0.1.0', { 'demo/values.yaml': 'replicaCount: 3\n' })
    const refused = await curl(['-T', other, `${base}/api/helm/helm-local/demo-0.1.0.tgz`])
    expect(JSON.parse(refused.stdout).errors[0]).toEqual({
      status: 409,
      message: 'Chart demo version 0.1.0 already exists in helm-local',
    })
  })

  it('refuses broken and hostile archives with 400, storing nothing', async () => {
    const cases: [string, string, RegExp][] = [
      ['no Chart.yaml', await chart('nochart', '1.0.0', {}, 'elsewhere').then((f) => f), /must sit in|no <chart>/],
      ['not a tar', path.join(work, 'not-a-tar.tgz'), /not a readable tar archive/],
      ['a bad version', await chart('badver', 'one'), /not a SemVer 2 version/],
      ['a bad name', await chart('Bad_Name', '1.0.0'), /not a valid chart name/],
    ]
    fs.writeFileSync(path.join(work, 'not-a-tar.tgz'), 'plain text')
    // An entry that climbs out of the chart's folder.
    const climbing = path.join(work, 'climb')
    writeFiles(climbing, { 'evil/Chart.yaml': 'apiVersion: v2\nname: evil\nversion: 1.0.0\n', 'secret.txt': 'x' })
    expect((await run('tar', ['-czPf', 'evil-1.0.0.tgz', 'evil', '../climb/secret.txt'], { cwd: climbing })).code).toBe(0)
    cases.push(['a climbing entry', path.join(climbing, 'evil-1.0.0.tgz'), /climbs out of the tree/])
    // A file beside the chart's folder.
    expect((await run('tar', ['-czf', 'beside-1.0.0.tgz', 'evil', 'secret.txt'], { cwd: climbing })).code).toBe(0)
    fs.renameSync(path.join(climbing, 'beside-1.0.0.tgz'), path.join(climbing, 'evil-1.0.1.tgz'))
    cases.push([
      'an entry beside the chart',
      path.join(climbing, 'evil-1.0.1.tgz'),
      /outside the chart's folder evil\/: secret.txt/,
    ])
    for (const [what, file, message] of cases) {
      const name = path.basename(file)
      const res = await curl(['-T', file, `${base}/api/helm/helm-local/api/charts`.replace('/api/charts', `/${name}`)])
      const body = JSON.parse(res.stdout)
      expect(body.errors[0].status, what).toBe(400)
      expect(body.errors[0].message, what).toMatch(message)
    }
    // A file name that is not the chart's own.
    const misnamed = await chart('demo', '0.3.0')
    const wrong = JSON.parse((await curl(['-T', misnamed, `${base}/api/helm/helm-local/other-0.3.0.tgz`])).stdout)
    expect(wrong.errors[0]).toEqual({
      status: 400,
      message: 'Refused chart: other-0.3.0.tgz holds demo 0.3.0; its file name is demo-0.3.0.tgz',
    })
    expect(Object.keys((await index('helm-local')).entries)).toEqual(['demo'])
    const files = await t.app.db.kysely.selectFrom('files').select('path').where('repo_key', '=', 'helm-local').execute()
    expect(files.map((f) => f.path).sort()).toEqual(['demo-0.1.0.tgz', 'demo-0.2.0.tgz'])
  })

  it('needs credentials to read and the deploy permission to upload', async () => {
    expect(await status(['-u', 'nobody:wrong', `${base}/api/helm/helm-local/index.yaml`])).toBe(401)
    const anonymous = await run('curl', ['-sS', '-o', '/dev/null', '-D', '-', `${base}/api/helm/helm-local/index.yaml`], {
      cwd: work,
    })
    expect(anonymous.stdout).toMatch(/^HTTP\/1.1 401/)
    expect(anonymous.stdout.toLowerCase()).toContain('www-authenticate: basic')
  })

  it('proxies a second Trove through a remote repository and merges members in a virtual one', async () => {
    upstream = await createTestApp()
    const upstreamBase = await listen(upstream.fastify)
    const upAdmin = await signIn(upstream.fastify)
    const upToken = await accessToken(upstream.fastify, upAdmin)
    await createRepo(upstream.fastify, upAdmin, 'charts', { rclass: 'local', packageType: 'helm' })
    // Uploaded as set-me-up says: `helm package`, then curl.
    const upload = async (
      name: string,
      version: string,
      target: { baseUrl: string; repoKey: string; rclass: 'local' | 'virtual'; token: string },
    ) => {
      const dir = chartDir(name, version)
      const snippet = setMeUpSnippets({ ...target, packageType: 'helm', user: 'admin' }).find((s) => s.id === 'helm-upload')
      const text = (snippet?.text ?? '')
        .replaceAll('<CHART_DIR>', name)
        .replaceAll('<CHART>', name)
        .replaceAll('<VERSION>', version)
      const res = await run('bash', ['-euc', text], { cwd: dir, env: { PATH: `${helmStandIn()}:${process.env.PATH ?? ''}` } })
      expect(res.code, `${text}\n${res.stdout}\n${res.stderr}`).toBe(0)
      return path.join(dir, `${name}-${version}.tgz`)
    }
    const far = await upload('faraway', '2.0.0', { baseUrl: upstreamBase, repoKey: 'charts', rclass: 'local', token: upToken })
    await createRepo(t.fastify, admin, 'helm-remote', {
      rclass: 'remote',
      packageType: 'helm',
      url: `${upstreamBase}/api/helm/charts`,
      username: 'admin',
      password: upToken,
    })
    await createRepo(t.fastify, admin, 'helm-virtual', {
      rclass: 'virtual',
      packageType: 'helm',
      repositories: ['helm-local', 'helm-remote'],
      defaultDeploymentRepo: 'helm-local',
    })
    const doc = await index('helm-virtual', `admin:${token}`)
    expect(Object.keys(doc.entries)).toEqual(['demo', 'faraway'])
    expect(doc.entries.faraway?.[0]).toMatchObject({
      version: '2.0.0',
      urls: ['faraway-2.0.0.tgz'],
      digest: sha256(fs.readFileSync(far)),
    })
    const fetched = path.join(work, 'faraway.tgz')
    const got = await curl(['-f', '-o', fetched, `${base}/api/helm/helm-virtual/faraway-2.0.0.tgz`])
    expect(got.code, got.stderr).toBe(0)
    expect(fs.readFileSync(fetched)).toEqual(fs.readFileSync(far))
    // The remote recorded what it cached, so the packages browser shows it with its readme,
    // licences and dependencies; the download is counted.
    const cached = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.repo_key'])
      .where('p.name', '=', 'faraway')
      .executeTakeFirstOrThrow()
    expect(cached.repo_key).toBe('helm-remote')
    const browser = packagesBrowser(t.fastify, admin)
    await browser.installSecurityLicense()
    expect(await browser.package('helm://faraway')).toMatchObject({
      name: 'faraway',
      packageType: 'helm',
      latestVersion: '2.0.0',
      description: 'A demo chart for Trove',
      licenses: [{ name: 'Apache-2.0', source: 'declared' }],
    })
    expect(await browser.readme({ id: 'helm://faraway:2.0.0' })).toBe('# faraway\n\nThe readme of faraway 2.0.0.\n')
    expect(await browser.dependencies('helm://faraway:2.0.0')).toEqual([{ name: 'redis', range: '~17.0.0', scope: 'runtime' }])
    await browser.downloads('helm://faraway', 1)
    // Uploads through the virtual land in its deployment repository.
    await upload('demo', '0.4.0', { baseUrl: base, repoKey: 'helm-virtual', rclass: 'virtual', token })
    expect((await index('helm-local')).entries.demo?.[0]?.version).toBe('0.4.0')
  }, 60_000)

  it('deletes a version with ChartMuseum’s API, and it leaves the index', async () => {
    const deleted = await curl(['-f', '-X', 'DELETE', `${base}/api/helm/helm-local/api/charts/demo/0.4.0`])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect((await index('helm-local')).entries.demo?.map((e) => e.version)).toEqual(['0.2.0', '0.1.0'])
    expect(await status(['-X', 'DELETE', `${base}/api/helm/helm-local/api/charts/demo/9.9.9`])).toBe(404)
  })

  it('keeps charts as OCI artifacts in a Docker repository, as `helm push oci://` sends them', async () => {
    await createRepo(t.fastify, admin, 'docker-charts', { rclass: 'local', packageType: 'docker' })
    const archive = fs.readFileSync(await chart('ocidemo', '1.0.0'))
    const config = Buffer.from(
      JSON.stringify({ name: 'ocidemo', version: '1.0.0', apiVersion: 'v2', description: 'A demo chart for Trove' }),
    )
    const bearer = { authorization: `Bearer ${token}` }
    for (const blob of [config, archive]) {
      const res = await fetch(`${base}/v2/docker-charts/ocidemo/blobs/uploads/?digest=sha256:${sha256(blob)}`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/octet-stream' },
        body: blob,
      })
      expect(res.status, await res.text()).toBe(201)
    }
    const manifest = JSON.stringify({
      schemaVersion: 2,
      config: { mediaType: 'application/vnd.cncf.helm.config.v1+json', digest: `sha256:${sha256(config)}`, size: config.length },
      layers: [
        {
          mediaType: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip',
          digest: `sha256:${sha256(archive)}`,
          size: archive.length,
        },
      ],
    })
    const put = await fetch(`${base}/v2/docker-charts/ocidemo/manifests/1.0.0`, {
      method: 'PUT',
      headers: { ...bearer, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      body: manifest,
    })
    expect(put.status, await put.text()).toBe(201)
    // `helm pull oci://…` reads the manifest by tag, then the chart layer.
    const got = await fetch(`${base}/v2/docker-charts/ocidemo/manifests/1.0.0`, {
      headers: { ...bearer, accept: 'application/vnd.oci.image.manifest.v1+json' },
    })
    expect(got.status).toBe(200)
    expect(await got.text()).toBe(manifest)
    const layer = await fetch(`${base}/v2/docker-charts/ocidemo/blobs/sha256:${sha256(archive)}`, { headers: bearer })
    expect(Buffer.from(await layer.arrayBuffer())).toEqual(archive)
  })
})
