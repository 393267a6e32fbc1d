import crypto from 'node:crypto'
import zlib from 'node:zlib'
import { expect, type Page, test } from '@playwright/test'
import tar from 'tar-stream'
import { csrfOf, signInAsAdmin } from './signIn'

/** What `npm publish` sends for one version: its manifest and its tarball inline. */
async function npmPublishBody(base: string, repo: string, manifest: { name: string; version: string; [k: string]: unknown }) {
  const pack = tar.pack()
  pack.entry({ name: 'package/package.json' }, JSON.stringify(manifest))
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const c of pack) chunks.push(c as Buffer)
  const tgz = zlib.gzipSync(Buffer.concat(chunks))
  const file = `${manifest.name}-${manifest.version}.tgz`
  return {
    body: {
      _id: manifest.name,
      name: manifest.name,
      'dist-tags': { latest: manifest.version },
      versions: { [manifest.version]: { ...manifest, dist: { tarball: `${base}/api/npm/${repo}/${manifest.name}/-/${file}` } } },
      _attachments: { [file]: { content_type: 'application/octet-stream', data: tgz.toString('base64'), length: tgz.length } },
    },
  }
}

/**
 * Stored XSS, per field users write: what one user typed is shown to another as text, never run.
 * Each field holds markup that would set window.__xss (or open a dialog) if it ever ran; every
 * screen that shows it is opened, and the markup must appear as the text it is.
 */
const PAYLOAD = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>"'><svg onload=window.__xss=1>`

async function nothingRan(page: Page, where: string) {
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss), where).toBeUndefined()
  expect(await page.locator('img[src="x"], svg[onload], main script').count(), where).toBe(0)
}

test('markup in descriptions, readmes, build names and properties shows as text on every screen', async ({ page, baseURL }) => {
  test.setTimeout(90_000)
  const dialogs: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const suffix = crypto.randomBytes(3).toString('hex')
  const npmRepo = `xss-npm-${suffix}`
  const files = `xss-files-${suffix}`
  for (const [key, packageType] of [
    [npmRepo, 'npm'],
    [files, 'generic'],
  ] as const) {
    const made = await page.request.put(`/api/repositories/${key}`, {
      headers,
      data: { rclass: 'local', packageType, description: `${PAYLOAD} ${key}` },
    })
    expect(made.status()).toBe(201)
  }

  // A package whose description and readme carry the markup, and a javascript: link.
  const name = `xss-pkg-${suffix}`
  const { body } = await npmPublishBody(baseURL ?? '', npmRepo, {
    name,
    version: '1.0.0',
    description: `${PAYLOAD} described`,
    readme: `# Title\n\n${PAYLOAD}\n\n[a link](javascript:window.__xss=1)\n`,
  })
  const published = await page.request.put(`/api/npm/${npmRepo}/${name}`, { headers, data: body })
  expect(published.status()).toBeLessThan(300)

  // A file with a property, and a build whose name is markup.
  const put = await page.request.put(`/artifactory/${files}/notes.txt;note=${encodeURIComponent(PAYLOAD)}`, {
    headers,
    data: 'notes',
  })
  expect(put.status()).toBe(201)
  // A build name holds no slash: the markup without its closing tags.
  const buildName = `<img src=x onerror="window.__xss=1"><svg onload=window.__xss=1>-${suffix}`
  const build = await page.request.put('/api/build', {
    headers,
    data: { version: '1.0.1', name: buildName, number: '1', started: '2026-03-01T10:00:00.000+0000', modules: [] },
  })
  expect(build.status(), await build.text()).toBe(204)

  // Names of users and groups cannot hold markup at all.
  const user = await page.request.post('/ui/api/v1/ui/admin/users', {
    headers,
    data: { name: '<b>x</b>', password: 'password-123' },
  })
  expect(user.status()).toBe(400)
  const group = await page.request.post('/ui/api/v1/ui/admin/groups', { headers, data: { name: '<b>x</b>' } })
  expect(group.status()).toBe(400)

  // Every screen that shows one of them.
  await page.goto('/ui/admin/repositories')
  await expect(page.getByText(`${PAYLOAD} ${files}`)).toBeVisible()
  await nothingRan(page, 'repositories')

  await page.goto(`/ui/packages?query=${name}`)
  await expect(page.getByText(`${PAYLOAD} described`).first()).toBeVisible()
  await nothingRan(page, 'packages list')
  await page.goto(`/ui/packages/npm%3A%2F%2F${name}/1.0.0`)
  const readme = page.getByTestId('readme')
  await expect(readme.getByRole('heading', { name: 'Title' })).toBeVisible()
  await expect(readme.getByRole('link', { name: 'a link' })).toHaveCount(0)
  await nothingRan(page, 'readme')

  await page.goto(`/ui/artifacts/browse/tree/General/${files}/notes.txt`)
  await page.getByRole('tab', { name: 'Properties' }).click()
  await expect(page.getByRole('table', { name: 'Properties' })).toContainText(PAYLOAD)
  await nothingRan(page, 'properties')

  await page.goto('/ui/builds')
  await expect(page.getByText(buildName)).toBeVisible()
  await nothingRan(page, 'builds')
  await page.getByText(buildName).click()
  await expect(page.getByRole('heading', { name: buildName })).toBeVisible()
  await nothingRan(page, 'build')
  expect(dialogs).toEqual([])
})
