import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, type Page, test } from '@playwright/test'
import { writeOciImage } from '../../apps/server/test/ociImage'
import { type OwnServer, shoot, signInAt, startOwnServer } from '../ownServer'
import { ADMIN_PASSWORD } from '../playwright.config'
import { csrfOf } from './signIn'

// The security scanner with real clients, on a server of its own with the scanner module on:
// an npm package that depends on a version a real advisory names shows it on its Security tab, a
// policy that blocks downloads makes npm install fail naming the advisory, npm audit lists the
// same advisory, and a Debian image pushed with skopeo shows its OS packages' advisory.
const FIXTURES = fileURLToPath(new URL('../../apps/server/test/fixtures/osv', import.meta.url))
const LODASH = 'GHSA-35jh-r3h4-6jhm'
const OPENSSL = 'DSA-5532-1'

let server: OwnServer
let work: string

test.beforeAll(async () => {
  test.setTimeout(60_000)
  server = await startOwnServer('scanner', { TROVE_MODULES: 'repository,scanner' })
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-e2e-scanner-'))
})
test.afterAll(() => {
  server?.stop()
  if (work) fs.rmSync(work, { recursive: true, force: true })
})

/** npm with its settings in the journey's folder only (the runner's own npm_config_* would override them). */
function npm(args: string[], cwd: string) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)))
  return spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...inherited,
      npm_config_userconfig: path.join(work, '.npmrc'),
      npm_config_cache: path.join(work, `cache-${args[0]}-${path.basename(cwd)}`),
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
  })
}

function writePackage(folder: string, manifest: object): string {
  const dir = path.join(work, folder)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest))
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = 1\n')
  return dir
}

/** Opens a version's Security tab (labelled Xray Data: the scanner runs on this instance) and waits for the scan. */
async function openSecurityTab(page: Page, packageId: string, version: string) {
  await page.goto(`${server.url}/ui/packages/${encodeURIComponent(packageId)}/${encodeURIComponent(version)}`)
  await page.getByRole('tab', { name: 'Xray Data' }).click()
  await expect(page.getByRole('table', { name: 'Vulnerable components' })).toBeVisible({ timeout: 20_000 })
}

test('a vulnerable dependency shows on the Security tab, a policy blocks it, npm audit lists it, and an image shows its OS advisory', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInAt(page, server.url)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const api = (p: string) => `${server.url}${p}`

  // Set-up an administrator does by script: a licence with security data, repositories, a token,
  // the advisories of two real OSV records.
  const licensed = await page.request.put(api('/ui/api/v1/ui/admin/license'), {
    headers,
    data: { type: 'ENTERPRISE', licensedTo: 'Scanner Corp', validThrough: null },
  })
  expect(licensed.ok()).toBe(true)
  for (const [key, packageType] of [
    ['npm-local', 'npm'],
    ['docker-local', 'docker'],
  ]) {
    const made = await page.request.put(api(`/api/repositories/${key}`), { headers, data: { rclass: 'local', packageType } })
    expect(made.status()).toBe(201)
  }
  const tokenAnswer = await page.request.post(api('/ui/api/v1/ui/userIdentifyToken/admin'), {
    headers,
    data: { expiresIn: 3600 },
  })
  const token = (await tokenAnswer.json()).access_token as string
  const imported = await page.request.post(api('/ui/api/v1/xray/ui/admin/database/import'), {
    headers,
    data: [LODASH, OPENSSL].map((id) => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${id}.json`), 'utf8'))),
  })
  expect(imported.status(), await imported.text()).toBe(200)

  // A developer publishes lodash 4.17.20 (the advisory names it) and 4.17.21, and an app using the first.
  const registry = api('/api/npm/npm-local/')
  fs.writeFileSync(path.join(work, '.npmrc'), `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${token}\n`)
  for (const [dir, manifest] of [
    ['lodash-4.17.20', { name: 'lodash', version: '4.17.20', license: 'MIT' }],
    ['lodash-4.17.21', { name: 'lodash', version: '4.17.21', license: 'MIT' }],
    ['web-app', { name: 'web-app', version: '1.0.0', license: 'Apache-2.0', dependencies: { lodash: '4.17.20' } }],
  ] as const) {
    const published = npm(['publish'], writePackage(dir, manifest))
    expect(published.status, published.stderr).toBe(0)
  }

  // The app's Security tab: the advisory through its lodash dependency, with the version that fixes it.
  await openSecurityTab(page, 'npm://web-app', '1.0.0')
  const row = page.getByRole('table', { name: 'Vulnerable components' }).getByRole('row').filter({ hasText: LODASH })
  await expect(row).toContainText('lodash')
  await expect(row).toContainText('4.17.20')
  await expect(row).toContainText('4.17.21')
  await expect(row).toContainText('high')
  await shoot(page, 'scanner-security-tab')
  await row.getByRole('button', { name: LODASH }).click()
  const details = page.getByRole('dialog', { name: LODASH })
  await expect(details).toContainText('CVE-2021-23337')
  await expect(details).toContainText('4.17.21')
  await expect(details.getByRole('link').first()).toHaveAttribute('href', /^https:\/\//)
  await shoot(page, 'scanner-advisory')
  await page.keyboard.press('Escape')

  // The top bar's security search: the CVE finds the advisory and every stored version it impacts.
  await page.getByRole('combobox', { name: 'Search type' }).click()
  await page.getByRole('option', { name: 'Security' }).click()
  await page.getByRole('combobox', { name: 'Search vulnerabilities and licences' }).fill('CVE-2021-23337')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/ui\/security-compliance\?query=CVE-2021-23337/)
  const impacted = page.getByRole('table', { name: `Versions ${LODASH} impacts` })
  await expect(impacted.getByRole('row')).toHaveCount(3)
  await expect(impacted).toContainText('npm-local')
  await shoot(page, 'scanner-search')
  await impacted.getByRole('link', { name: 'web-app 1.0.0' }).click()
  await expect(page).toHaveURL(/\/ui\/packages\/npm%3A%2F%2Fweb-app\/1\.0\.0/)

  // A policy that blocks downloads of anything with a high advisory, watching npm-local.
  const admin = (p: string, data: object) => page.request.post(api(`/ui/api/v1/xray/ui/admin/${p}`), { headers, data })
  expect((await admin('policies', { name: 'no-high', minSeverity: 'high', actions: { blockDownload: true } })).status()).toBe(201)
  expect((await admin('watches', { name: 'npm', repositories: ['npm-local'], policies: ['no-high'] })).status()).toBe(201)

  // npm install of the app fails on lodash's tarball, and says which advisory.
  const project = writePackage('consumer', { name: 'consumer', version: '1.0.0', dependencies: { 'web-app': '1.0.0' } })
  const install = npm(['install', '--no-audit'], project)
  expect(install.status).not.toBe(0)
  expect(install.stderr).toMatch(/403/)
  expect(install.stderr).toContain(LODASH)

  // npm audit of the same project (its lock file needs metadata only) lists the same advisory.
  const lock = npm(['install', '--package-lock-only', '--no-audit'], project)
  expect(lock.status, lock.stderr).toBe(0)
  const audit = npm(['audit', '--json'], project)
  const report = JSON.parse(audit.stdout)
  expect(report.vulnerabilities.lodash.severity).toBe('high')
  expect(JSON.stringify(report.vulnerabilities.lodash.via)).toContain(LODASH)

  // A Debian image pushed with skopeo: its dpkg database's openssl has the Debian advisory.
  const image = writeOciImage(path.join(work, 'image'), {
    content: '',
    tag: '1.0',
    files: {
      'etc/os-release': 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n',
      'var/lib/dpkg/status':
        'Package: libssl3\nStatus: install ok installed\nSource: openssl\nVersion: 3.0.11-1~deb12u1\n\n' +
        'Package: zlib1g\nStatus: install ok installed\nSource: zlib\nVersion: 1:1.2.13.dfsg-1\n',
    },
  })
  const pushed = spawnSync(
    'skopeo',
    [
      '--insecure-policy',
      'copy',
      '--dest-creds',
      `admin:${ADMIN_PASSWORD}`,
      '--dest-tls-verify=false',
      `oci:${image.layout}:1.0`,
      `docker://${new URL(server.url).host}/docker-local/web-image:1.0`,
    ],
    { encoding: 'utf8', env: { ...process.env, HOME: work, REGISTRY_AUTH_FILE: path.join(work, 'auth.json') } },
  )
  expect(pushed.status, pushed.stderr).toBe(0)
  await openSecurityTab(page, 'docker://web-image', '1.0')
  await expect(page.getByText('OS: debian 12')).toBeVisible()
  const osRow = page.getByRole('table', { name: 'Vulnerable components' }).getByRole('row').filter({ hasText: OPENSSL })
  await expect(osRow).toContainText('openssl')
  await expect(osRow).toContainText('3.0.11-1~deb12u2')
  await shoot(page, 'scanner-image')
})
