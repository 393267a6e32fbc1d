import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { npmPublish } from '../npmClient'
import { expectAccessible } from './axe'
import { csrfOf, signInAsAdmin } from './signIn'

/** Chooses a type in the top bar's search and runs a search for `text`, as a person would. */
async function searchFor(page: Page, type: 'Packages' | 'Artifacts', text: string) {
  await page.getByRole('combobox', { name: 'Search type' }).click()
  await page.getByRole('option', { name: type }).click()
  const box = page.getByRole('combobox', { name: `Search ${type.toLowerCase()}` })
  await box.fill(text)
  await box.press('Enter')
}

test('files and packages are found by any part of their names, and a found file opens in the tree', async ({
  page,
  baseURL,
}, info) => {
  test.setTimeout(90_000)
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const suffix = crypto.randomBytes(3).toString('hex')
  const files = `find-files-${suffix}`
  const npm = `find-npm-${suffix}`
  for (const [key, packageType] of [
    [files, 'generic'],
    [npm, 'npm'],
  ]) {
    const created = await page.request.put(`/api/repositories/${key}`, { headers, data: { rclass: 'local', packageType } })
    expect(created.status()).toBe(201)
  }
  // Files with underscores and dots in their names, two of them alike but for one character.
  for (const file of ['tools/my_tool/1.0/my_tool-1.0.tgz', 'tools/myXtool/1.0/myXtool-1.0.tgz', 'docs/readme.txt']) {
    const put = await page.request.put(`/ui/api/v1/ui/artifacts/deploy/${files}/${file}`, {
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      data: Buffer.from(`the bytes of ${file}\n`),
    })
    expect(put.status(), await put.text()).toBeLessThan(300)
  }

  // An npm package published with the real client, whose name holds the word looked for in its middle.
  const tokenAnswer = await page.request.post('/ui/api/v1/ui/userIdentifyToken/admin', { headers, data: { expiresIn: 3600 } })
  const token = (await tokenAnswer.json()).access_token as string
  const name = `@walk-${suffix}/hello-trove`
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-e2e-find-'))
  const dir = path.join(work, 'pkg')
  fs.mkdirSync(dir)
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '0.1.0', description: 'Says hello' }))
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = "hello"\n')
  const published = npmPublish(work, dir, `${baseURL}/api/npm/${npm}/`, token)
  expect(published.status, published.stderr).toBe(0)

  // Packages: "trove", the end of the name, finds it (not only its start).
  await page.goto('/ui/packages')
  await searchFor(page, 'Packages', `hello-trove`)
  await expect(page.getByRole('button', { name: new RegExp(name) })).toBeVisible()
  await page.getByRole('combobox', { name: 'Search packages' }).fill(`trove`)
  await page.getByRole('combobox', { name: 'Search packages' }).press('Enter')
  await expect(page.getByRole('button', { name: new RegExp(name) })).toBeVisible()

  // Files: part of a name, limited to the repository, from a file selected in the tree.
  await page.goto(`/ui/artifacts/browse/tree/General/${files}/docs/readme.txt`)
  const tree = page.getByRole('tree', { name: 'Repositories' })
  await expect(tree.getByRole('treeitem', { name: 'readme.txt' })).toHaveAttribute('aria-selected', 'true')
  await searchFor(page, 'Artifacts', `_tool-1 repo:${files}`)
  const results = page.getByRole('region', { name: 'Search results' })
  await expect(results.getByText('1 file matches “_tool-1”.')).toBeVisible()
  const row = results.getByRole('row', { name: /my_tool-1\.0\.tgz/ })
  await expect(row).toContainText('tools/my_tool/1.0/')
  await expect(row).toContainText(files)
  await expect(row).toContainText('B')
  // The selection stayed where it was while the results show.
  await expect(page).toHaveURL(new RegExp(`/ui/artifacts/browse/tree/General/${files}/docs/readme\\.txt\\?query=`))
  await expect(tree.getByRole('treeitem', { name: 'readme.txt' })).toHaveAttribute('aria-selected', 'true')
  await expectAccessible(page)
  await page.screenshot({ path: info.outputPath('artifact-search.png') })

  // Wildcards: ? stands for one character, so both tools are found.
  await searchFor(page, 'Artifacts', `my?tool repo:${files}`)
  await expect(results.getByText('2 files match “my?tool”.')).toBeVisible()

  // A click opens the file in the tree: the results close, the file is selected and its details show.
  await results.getByRole('link', { name: 'my_tool-1.0.tgz' }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/artifacts/browse/tree/General/${files}/tools/my_tool/1\\.0/my_tool-1\\.0\\.tgz$`))
  await expect(tree.getByRole('treeitem', { name: 'my_tool-1.0.tgz' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('heading', { name: 'my_tool-1.0.tgz' })).toBeVisible()
  await expect(results).toHaveCount(0)

  // Nothing found says so; closing the results goes back to the selection's details.
  await searchFor(page, 'Artifacts', `no-such-file-${suffix}`)
  await expect(results.getByText(`No file you may read matches “no-such-file-${suffix}”.`)).toBeVisible()
  await results.getByRole('button', { name: 'Close the search results' }).click()
  await expect(page.getByRole('heading', { name: 'my_tool-1.0.tgz' })).toBeVisible()
  await expect(page).not.toHaveURL(/query=/)
})
