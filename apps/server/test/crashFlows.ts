import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { type RunResult, run, writeFiles } from './clients.js'
import { ADMIN_PASSWORD, type KillingProxy, sha1, sha256 } from './crash.js'
import { writeOciImage } from './ociImage.js'
import { CLIENT_ENV, PYTHON } from './pypi.js'

/** What a flow needs of the harness: the proxy clients talk to, a token, a work dir. */
export interface Harness {
  proxy: KillingProxy
  token: string
  work: string
}

/**
 * One client's upload, repeatable with a new version each time (`n`), and the client's view of
 * everything uploaded so far: each listed version must come back whole and true to its checksums.
 */
export interface CrashFlow {
  name: string
  repo: { key: string; packageType: string }
  prepare?(h: Harness): void
  upload(h: Harness, n: number): Promise<RunResult>
  /**
   * The client refuses to retry because it sees the version already there (npm reads the packument
   * first): then the version must be listed, whole.
   */
  alreadyThere?(h: Harness, n: number, retry: RunResult): Promise<boolean>
  check(h: Harness): Promise<string[]>
}

/** Pseudo-random text (hex of SHAKE256) makes each upload some 48 KB that compression cannot shrink much. */
const PAYLOAD_BYTES = 24 * 1024
const payload = (n: number) => crypto.createHash('shake256', { outputLength: PAYLOAD_BYTES }).update(`payload ${n}`).digest('hex')

async function fetchOk(h: Harness, url: string): Promise<Response> {
  return fetch(`${h.proxy.url}${url}`, { headers: { authorization: `Bearer ${h.token}` } })
}

const npmEnv = (h: Harness) => ({
  npm_config_userconfig: path.join(h.work, '.npmrc'),
  npm_config_cache: path.join(h.work, 'npm-cache'),
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'warn',
  // The harness decides when to try again, not npm.
  npm_config_fetch_retries: '0',
})

export const npmFlow: CrashFlow = {
  name: 'npm publish',
  repo: { key: 'npm-local', packageType: 'npm' },
  prepare(h) {
    fs.writeFileSync(
      path.join(h.work, '.npmrc'),
      `registry=${h.proxy.url}/api/npm/npm-local/\n//${h.proxy.host}/api/npm/npm-local/:_authToken=${h.token}\n`,
    )
  },
  upload(h, n) {
    const dir = writeFiles(path.join(h.work, `npm-${n}`), {
      'package.json': JSON.stringify({ name: 'crash-npm', version: `1.0.${n}`, description: 'crash test' }),
      'index.js': `module.exports = '${payload(n)}'\n`,
    })
    return run('npm', ['publish'], { cwd: dir, env: npmEnv(h) })
  },
  async alreadyThere(h, n, retry) {
    if (!/You cannot publish over the previously published versions/.test(retry.stderr)) return false
    const res = await fetchOk(h, '/api/npm/npm-local/crash-npm')
    return res.status === 200 && `1.0.${n}` in ((await res.json()) as { versions: object }).versions
  },
  async check(h) {
    const res = await fetchOk(h, '/api/npm/npm-local/crash-npm')
    if (res.status === 404) return []
    if (res.status !== 200) return [`packument: ${res.status}`]
    const doc = (await res.json()) as { versions: Record<string, { dist: { tarball: string; shasum: string } }> }
    const problems: string[] = []
    for (const [version, v] of Object.entries(doc.versions)) {
      const tarball = await fetch(v.dist.tarball, { headers: { authorization: `Bearer ${h.token}` } })
      if (tarball.status !== 200) problems.push(`npm ${version}: tarball ${tarball.status}`)
      else if (sha1(Buffer.from(await tarball.arrayBuffer())) !== v.dist.shasum)
        problems.push(`npm ${version}: tarball shasum differs`)
    }
    return problems
  },
}

/** The script that writes a wheel with Python's own zipfile (what twine reads back). */
function writeWheelScript(dir: string, n: number): void {
  fs.mkdirSync(dir, { recursive: true })
  const script = `
import sys, zipfile
file, version = sys.argv[1], sys.argv[2]
data = open("data").read()
info = f"crash_py-{version}.dist-info"
with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("crash_py/__init__.py", f"DATA = '{data}'\\n")
    z.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\\nName: crash-py\\nVersion: {version}\\nSummary: crash test\\n")
    z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\\nGenerator: crash\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr(f"{info}/RECORD", "")
`
  fs.writeFileSync(path.join(dir, 'wheel.py'), script)
  fs.writeFileSync(path.join(dir, 'data'), payload(n))
}

export const pypiFlow: CrashFlow = {
  name: 'twine upload',
  repo: { key: 'pypi-local', packageType: 'pypi' },
  async upload(h, n) {
    const dir = path.join(h.work, `py-${n}`)
    // A retry sends the same file again, as twine would.
    const wheel = path.join(dir, `crash_py-1.0.${n}-py3-none-any.whl`)
    if (!fs.existsSync(wheel)) {
      writeWheelScript(dir, n)
      const written = await run(PYTHON, ['wheel.py', wheel, `1.0.${n}`], { cwd: dir })
      if (written.code !== 0) return written
    }
    return run(
      'twine',
      [
        'upload',
        '--non-interactive',
        '--disable-progress-bar',
        '--repository-url',
        `${h.proxy.url}/api/pypi/pypi-local`,
        '-u',
        '__token__',
        '-p',
        h.token,
        wheel,
      ],
      { cwd: dir, env: CLIENT_ENV },
    )
  },
  async check(h) {
    const res = await fetchOk(h, '/api/pypi/pypi-local/simple/crash-py/')
    if (res.status === 404) return []
    if (res.status !== 200) return [`simple page: ${res.status}`]
    const page = await res.text()
    const problems: string[] = []
    for (const m of page.matchAll(/href="([^"#]+)#sha256=([0-9a-f]{64})"/g)) {
      const url = new URL((m[1] as string).replaceAll('&amp;', '&'), `${h.proxy.url}/api/pypi/pypi-local/simple/crash-py/`)
      const file = await fetch(url, { headers: { authorization: `Bearer ${h.token}` } })
      if (file.status !== 200) problems.push(`pypi ${url.pathname}: ${file.status}`)
      else if (sha256(Buffer.from(await file.arrayBuffer())) !== m[2]) problems.push(`pypi ${url.pathname}: sha256 differs`)
    }
    return problems
  },
}

export const ociFlow: CrashFlow = {
  name: 'skopeo push',
  repo: { key: 'docker-local', packageType: 'docker' },
  upload(h, n) {
    const dir = path.join(h.work, `oci-${n}`)
    const layout = fs.existsSync(dir)
      ? path.join(dir, 'layout')
      : writeOciImage(dir, { content: payload(n), tag: `1.0.${n}` }).layout
    return run(
      'skopeo',
      [
        '--insecure-policy',
        'copy',
        '--retry-times',
        '0',
        '--dest-creds',
        `admin:${h.token}`,
        '--dest-tls-verify=false',
        `oci:${layout}:1.0.${n}`,
        `docker://${h.proxy.host}/docker-local/crash:1.0.${n}`,
      ],
      { cwd: h.work },
    )
  },
  async check(h) {
    const res = await fetchOk(h, '/v2/docker-local/crash/tags/list')
    if (res.status === 404) return []
    if (res.status !== 200) return [`tags list: ${res.status}`]
    const problems: string[] = []
    for (const tag of ((await res.json()) as { tags: string[] | null }).tags ?? []) {
      const m = await fetch(`${h.proxy.url}/v2/docker-local/crash/manifests/${tag}`, {
        headers: { authorization: `Bearer ${h.token}`, accept: 'application/vnd.oci.image.manifest.v1+json' },
      })
      if (m.status !== 200) {
        problems.push(`oci ${tag}: manifest ${m.status}`)
        continue
      }
      const manifest = (await m.json()) as { config: { digest: string }; layers: { digest: string }[] }
      for (const { digest } of [manifest.config, ...manifest.layers]) {
        const blob = await fetchOk(h, `/v2/docker-local/crash/blobs/${digest}`)
        if (blob.status !== 200) problems.push(`oci ${tag}: blob ${digest} ${blob.status}`)
        else if (`sha256:${sha256(Buffer.from(await blob.arrayBuffer()))}` !== digest)
          problems.push(`oci ${tag}: blob ${digest} differs`)
      }
    }
    return problems
  },
}

/** Debian's Maven plugins (libmaven-deploy-plugin-java) are the only ones available offline. */
const DEBIAN_MAVEN_REPO = '/usr/share/maven-repo'
const POM = (version: string) => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>crash</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
</project>
`

export const mavenFlow: CrashFlow = {
  name: 'mvn deploy',
  repo: { key: 'maven-local', packageType: 'maven' },
  prepare(h) {
    fs.cpSync(DEBIAN_MAVEN_REPO, path.join(h.work, 'm2'), { recursive: true, dereference: true })
    writeFiles(h.work, {
      'settings.xml': `<settings><servers><server><id>trove</id><username>admin</username><password>${h.token}</password></server></servers></settings>`,
    })
  },
  upload(h, n) {
    const version = `1.0.${n}`
    const dir = writeFiles(path.join(h.work, `mvn-${n}`), { 'crash.jar': payload(n), 'pom.xml': POM(version) })
    return run(
      'mvn',
      [
        '-B',
        '-q',
        '-s',
        path.join(h.work, 'settings.xml'),
        `-Dmaven.repo.local=${path.join(h.work, 'm2')}`,
        '-Dmaven.wagon.http.retryHandler.count=0',
        'org.apache.maven.plugins:maven-deploy-plugin:3.0.0:deploy-file',
        '-Dfile=crash.jar',
        '-DpomFile=pom.xml',
        `-Durl=${h.proxy.url}/artifactory/maven-local`,
        '-DrepositoryId=trove',
      ],
      { cwd: dir },
    )
  },
  async check(h) {
    const res = await fetchOk(h, '/artifactory/maven-local/com/example/crash/maven-metadata.xml')
    if (res.status === 404) return []
    if (res.status !== 200) return [`maven-metadata.xml: ${res.status}`]
    const problems: string[] = []
    for (const m of (await res.text()).matchAll(/<version>([^<]+)<\/version>/g)) {
      const version = m[1] as string
      for (const file of [`crash-${version}.jar`, `crash-${version}.pom`]) {
        const url = `/artifactory/maven-local/com/example/crash/${version}/${file}`
        const [body, sum] = await Promise.all([fetchOk(h, url), fetchOk(h, `${url}.sha1`)])
        if (body.status !== 200) {
          problems.push(`maven ${file}: ${body.status} though maven-metadata.xml lists ${version}`)
          continue
        }
        const data = Buffer.from(await body.arrayBuffer())
        if (sum.status === 200 && (await sum.text()).trim() !== sha1(data)) problems.push(`maven ${file}: .sha1 differs`)
      }
    }
    return problems
  },
}

export const genericFlow: CrashFlow = {
  name: 'generic PUT',
  repo: { key: 'generic-local', packageType: 'generic' },
  upload(h, n) {
    const file = path.join(h.work, `generic-${n}.bin`)
    fs.writeFileSync(file, payload(n))
    return run(
      'curl',
      ['-sS', '-f', '-T', file, '-u', `admin:${h.token}`, `${h.proxy.url}/artifactory/generic-local/crash/file-${n}.bin`],
      { cwd: h.work },
    )
  },
  async check(h) {
    const problems: string[] = []
    const res = await fetchOk(h, '/api/storage/generic-local/crash')
    if (res.status === 404) return []
    if (res.status !== 200) return [`folder info: ${res.status}`]
    for (const { uri } of ((await res.json()) as { children: { uri: string }[] }).children) {
      const n = Number(/file-(\d+)\.bin/.exec(uri)?.[1])
      const file = await fetchOk(h, `/artifactory/generic-local/crash${uri}`)
      if (file.status !== 200) problems.push(`generic ${uri}: ${file.status} though listed`)
      else if ((await file.text()) !== payload(n)) problems.push(`generic ${uri}: content differs`)
    }
    return problems
  },
}

export const FLOWS = [npmFlow, pypiFlow, ociFlow, mavenFlow, genericFlow]
export { ADMIN_PASSWORD }
