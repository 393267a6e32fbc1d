import crypto from 'node:crypto'
import { expect, test } from '@playwright/test'
import { publishAsAdmin } from '../npmClient'
import { expectAccessible } from './axe'
import { csrfOf, searchFor, signInAsAdmin } from './signIn'

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
  const name = `@walk-${suffix}/hello-trove`
  await publishAsAdmin(page, headers, {
    registry: `${baseURL}/api/npm/${npm}/`,
    tmpPrefix: 'trove-e2e-find-',
    manifest: { name, version: '0.1.0', description: 'Says hello' },
    index: 'module.exports = "hello"\n',
  })

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
