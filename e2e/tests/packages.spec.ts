import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { Messages } from '@trove/contracts/messages'
import { writeOciImage } from '../../apps/server/test/ociImage'
import { npmPublish } from '../npmClient'
import { csrfOf, signInAsAdmin } from './signIn'

/** A package published with the real npm client, then found, opened and read in the browser. */
test('a package published with npm is found by search, opened, and every tab shows its data', async ({
  browser,
  page,
  baseURL,
}) => {
  test.setTimeout(90_000)
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const repo = `npm-browse-${crypto.randomBytes(3).toString('hex')}`
  const created = await page.request.put(`/api/repositories/${repo}`, { headers, data: { rclass: 'local', packageType: 'npm' } })
  expect(created.status()).toBe(201)
  const tokenAnswer = await page.request.post('/ui/api/v1/ui/userIdentifyToken/admin', { headers, data: { expiresIn: 3600 } })
  expect(tokenAnswer.status()).toBe(200)
  const token = (await tokenAnswer.json()).access_token as string

  // The package, on disk, as a developer has it.
  const name = `trove-browse-${crypto.randomBytes(3).toString('hex')}`
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-e2e-npm-'))
  const dir = path.join(work, 'pkg')
  fs.mkdirSync(dir)
  const writePackage = (version: string, readme: string) => {
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name,
        version,
        description: 'A package the browser finds',
        keywords: ['browser', 'e2e'],
        license: 'MIT',
        main: 'index.js',
        dependencies: { 'left-pad': '^1.3.0' },
      }),
    )
    fs.writeFileSync(path.join(dir, 'README.md'), readme)
  }
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = 42\n')
  // An older version first, with its own readme: the package page shows the latest one's.
  writePackage('1.0.0', '# Superseded notes\n\nOnly on 1.0.0.\n')
  const older = npmPublish(work, dir, `${baseURL}/api/npm/${repo}/`, token)
  expect(older.status, older.stderr).toBe(0)
  writePackage(
    '1.2.3',
    `# ${name}\n\nReads **well** in the browser.\n\n<script>window.__pwned = true</script>\n\n<img src=x onerror="window.__pwned = true">\n`,
  )
  const published = npmPublish(work, dir, `${baseURL}/api/npm/${repo}/`, token)
  expect(published.status, published.stderr).toBe(0)

  // A CI build that produced this tarball, through the build-info API CI tools use.
  const tarball = await page.request.get(`/api/npm/${repo}/${name}/-/${name}-1.2.3.tgz`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(tarball.status()).toBe(200)
  const bytes = await tarball.body()
  const sum = (algorithm: string) => crypto.createHash(algorithm).update(bytes).digest('hex')
  const build = await page.request.put('/api/build', {
    headers,
    data: {
      version: '1.0.1',
      name: 'browse-ci',
      number: '17',
      started: new Date().toISOString(),
      url: 'https://ci.example.com/browse-ci/17',
      modules: [
        {
          id: `${name}:1.2.3`,
          artifacts: [{ name: `${name}-1.2.3.tgz`, type: 'tgz', sha1: sum('sha1'), sha256: sum('sha256'), md5: sum('md5') }],
        },
      ],
    },
  })
  expect(build.status()).toBeLessThan(300)
  // A property on the tarball, set the way scripts set them.
  const property = await page.request.put(`/api/storage/${repo}/${name}/-/${name}-1.2.3.tgz?properties=release.stage=qa`, {
    headers,
  })
  expect(property.status()).toBe(204)

  // Search for it in the top bar, as a person would.
  await page.goto('/ui/packages')
  await expect(page.getByText(Messages.findPackagesHint)).toBeVisible()
  await page.getByRole('combobox', { name: 'Search packages' }).fill(name.slice(0, 14))
  await page.keyboard.press('Enter')
  const row = page.getByRole('button', { name: new RegExp(name) })
  await expect(row).toBeVisible()
  await expect(row).toContainText('A package the browser finds')
  await expect(page).toHaveURL(/\/ui\/packages\?query=/)
  await row.click()

  // The package level (no version in the path): its figures, its latest version's readme first,
  // and its versions.
  await expect(page).toHaveURL(new RegExp(`/ui/packages/npm%3A%2F%2F${name}(\\?|$)`))
  // The package's title comes first; the readme's own first heading is its name too.
  await expect(page.getByRole('heading', { name }).first()).toBeVisible()
  await expect(page.getByText('A package the browser finds')).toBeVisible()
  await expect(page.getByText(`npm i ${name}`)).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Readme' })).toHaveAttribute('aria-selected', 'true')
  const packageReadme = page.getByTestId('readme')
  await expect(packageReadme.getByRole('heading', { name })).toBeVisible()
  await expect(packageReadme.locator('strong')).toHaveText('well')
  await expect(packageReadme).not.toContainText('Superseded notes')
  await expect(page.getByText('The readme of the latest version, 1.2.3.')).toBeVisible()
  expect(await packageReadme.locator('script, [onerror]').count()).toBe(0)
  expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined()
  await page.screenshot({ path: test.info().outputPath('package-readme.png'), fullPage: true })
  await page.getByRole('tab', { name: 'Versions' }).click()
  await expect(page.getByRole('list', { name: 'Versions' }).getByRole('button', { name: /1\.0\.0/ })).toBeVisible()
  const version = page.getByRole('list', { name: 'Versions' }).getByRole('button', { name: /1\.2\.3/ })
  await expect(version).toBeVisible()
  await version.click()

  // The version level: readme first (an npm tarball is a .tgz).
  await expect(page).toHaveURL(/\/1\.2\.3/)
  await expect(page.getByRole('tab', { name: 'Readme' })).toHaveAttribute('aria-selected', 'true')
  const readme = page.getByTestId('readme')
  await expect(readme.getByRole('heading', { name })).toBeVisible()
  await expect(readme.locator('strong')).toHaveText('well')
  expect(await readme.locator('script, [onerror]').count()).toBe(0)
  expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined()
  await expect(page.getByRole('table', { name: 'Dependencies' })).toContainText('left-pad')
  await expect(page.getByRole('table', { name: 'Dependencies' })).toContainText('^1.3.0')
  await expect(page.getByTestId('digest')).toContainText(sum('sha256'))
  await page.screenshot({ path: test.info().outputPath('version-readme.png'), fullPage: true })

  await page.getByRole('tab', { name: 'Builds' }).click()
  const builds = page.getByRole('table', { name: 'Builds' })
  await expect(builds).toContainText('browse-ci')
  await expect(builds).toContainText('17')

  await page.getByRole('tab', { name: 'Location' }).click()
  await expect(page.getByRole('table', { name: 'Repositories' })).toContainText(repo)
  await expect(page.getByRole('table', { name: 'Files' })).toContainText(`${name}-1.2.3.tgz`)
  await expect(page.getByRole('table', { name: 'Files' })).toContainText(sum('sha256'))
  await expect(page.getByRole('table', { name: 'Properties' })).toContainText('release.stage')
  await expect(page.getByRole('table', { name: 'Properties' })).toContainText('qa')
  await page.screenshot({ path: test.info().outputPath('version-location.png'), fullPage: true })

  // No scanner on this instance: the tab says Security, and why it is empty.
  await page.getByRole('tab', { name: 'Security' }).click()
  await expect(page.getByText(Messages.xrayUnavailable)).toBeVisible()

  // A user who may read that repository: the list shows what they can see, and the search finds
  // the package.
  const user = `e2e-reader-${crypto.randomBytes(3).toString('hex')}`
  const made = await page.request.post('/ui/api/v1/ui/admin/users', {
    headers,
    data: { name: user, email: `${user}@example.org`, password: 'reader-password-1' },
  })
  expect(made.status()).toBe(201)
  const granted = await page.request.post('/ui/api/v1/ui/admin/permissions', {
    headers,
    data: {
      name: `${user}-read`,
      repositories: {
        resources: { names: [repo], include: [], exclude: [] },
        grants: [{ kind: 'user', name: user, actions: ['read'] }],
      },
    },
  })
  expect(granted.status()).toBe(201)
  const context = await browser.newContext()
  const reader = await context.newPage()
  await reader.goto('/ui/login')
  await reader.getByRole('textbox', { name: 'Username' }).fill(user)
  await reader.getByRole('textbox', { name: 'Password' }).fill('reader-password-1')
  await reader.getByRole('button', { name: 'Log In' }).click()
  // A user lands on the package list, which lists what they may read on arrival: this one package.
  await expect(reader).toHaveURL(/\/ui\/packages$/)
  await expect(reader.getByTestId('package-count')).toHaveText(/^1 package, most recently updated first/)
  await expect(reader.getByRole('button', { name: new RegExp(name) })).toBeVisible()
  await reader.getByRole('combobox', { name: 'Search packages' }).fill(name)
  await expect(reader.getByRole('button', { name: new RegExp(name) })).toBeVisible()
  await context.close()

  // An unknown package goes to the 404 route.
  await page.goto(`/ui/packages/${encodeURIComponent('npm://no-such-package-anywhere')}`)
  await expect(page).toHaveURL(/\/ui\/404$/)
  fs.rmSync(work, { recursive: true, force: true })
})

test('an image pushed with skopeo opens on its Docker Layers tab, with its digest and layers', async ({
  page,
  baseURL,
  request,
}) => {
  test.setTimeout(60_000)
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const repo = `docker-browse-${crypto.randomBytes(3).toString('hex')}`
  expect(
    (await page.request.put(`/api/repositories/${repo}`, { headers, data: { rclass: 'local', packageType: 'docker' } })).status(),
  ).toBe(201)
  const token = (
    await (await page.request.post('/ui/api/v1/ui/userIdentifyToken/admin', { headers, data: { expiresIn: 3600 } })).json()
  ).access_token as string
  const image = `browse-image-${crypto.randomBytes(3).toString('hex')}`
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-e2e-oci-'))
  const { layout } = writeOciImage(work, { content: 'hello 1.0\n', tag: '1.0' })
  const host = new URL(baseURL ?? '').host
  const pushed = spawnSync(
    'skopeo',
    [
      '--insecure-policy',
      'copy',
      '--dest-creds',
      `admin:${token}`,
      '--dest-tls-verify=false',
      `oci:${layout}:1.0`,
      `docker://${host}/${repo}/${image}:1.0`,
    ],
    { encoding: 'utf8' },
  )
  expect(pushed.status, pushed.stderr).toBe(0)

  await page.goto(`/ui/packages?query=${encodeURIComponent(`${image} pkg:docker`)}`)
  await page.getByRole('button', { name: new RegExp(image) }).click()
  // The package level pulls its latest version from this server, not a bare name (Docker Hub's).
  await expect(page.getByText(`docker pull ${host}/${repo}/${image}:1.0`)).toBeVisible()
  // An image has no readme: its package page opens on the versions.
  await expect(page.getByRole('tab', { name: 'Versions' })).toHaveAttribute('aria-selected', 'true')
  await page.screenshot({ path: test.info().outputPath('docker-package.png'), fullPage: true })
  await page.getByRole('list', { name: 'Versions' }).getByRole('button', { name: /1\.0/ }).click()
  // A docker manifest is not a readme extension: the default tab is Docker Layers.
  await expect(page.getByRole('tab', { name: 'Docker Layers' })).toHaveAttribute('aria-selected', 'true')
  const layers = page.getByRole('table', { name: 'Docker layers' })
  await expect(layers).toContainText('COPY hello.txt /')
  await expect(page.getByText(`docker pull ${host}/${repo}/${image}:1.0`)).toBeVisible()
  // The digest is the manifest's sha256.
  const manifestName = JSON.parse(fs.readFileSync(path.join(layout, 'index.json'), 'utf8')).manifests[0].digest as string
  await expect(page.getByTestId('digest')).toHaveText(manifestName)
  // An SBOM attached to the image (OCI 1.1, as oras attach pushes it) is listed under the layers.
  const bearer = { authorization: `Bearer ${token}` }
  const blob = async (body: string) => {
    const digest = `sha256:${crypto.createHash('sha256').update(body).digest('hex')}`
    // As a registry client calls: the token alone (the page's session cookie would need its CSRF token).
    const res = await request.post(`/v2/${repo}/${image}/blobs/uploads/?digest=${digest}`, {
      headers: { ...bearer, 'content-type': 'application/octet-stream' },
      data: Buffer.from(body),
    })
    expect(res.status()).toBe(201)
    return { digest, size: Buffer.byteLength(body) }
  }
  const subjectBody = fs.readFileSync(path.join(layout, 'blobs/sha256', manifestName.slice(7)))
  const sbom = {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    artifactType: 'application/spdx+json',
    config: { mediaType: 'application/vnd.oci.empty.v1+json', ...(await blob('{}')) },
    layers: [{ mediaType: 'application/spdx+json', ...(await blob('{"spdxVersion":"SPDX-2.3"}')) }],
    subject: { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: manifestName, size: subjectBody.length },
  }
  // By digest, untagged, as oras attach pushes it: no new version of the image.
  const sbomBody = Buffer.from(JSON.stringify(sbom))
  const sbomDigest = `sha256:${crypto.createHash('sha256').update(sbomBody).digest('hex')}`
  const attached = await request.put(`/v2/${repo}/${image}/manifests/${sbomDigest}`, {
    headers: { ...bearer, 'content-type': sbom.mediaType },
    data: sbomBody,
  })
  expect(attached.status()).toBe(201)
  expect(attached.headers()['oci-subject']).toBe(manifestName)
  await page.reload()
  await expect(page.getByRole('table', { name: 'Referrers' })).toContainText('application/spdx+json')
  await page.screenshot({ path: test.info().outputPath('docker-layers.png'), fullPage: true })
  fs.rmSync(work, { recursive: true, force: true })
})
