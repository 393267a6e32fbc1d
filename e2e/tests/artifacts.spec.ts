import crypto from 'node:crypto'
import fs from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { csrfOf, signInAsAdmin } from './signIn'

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex')

async function signIn(page: Page, user: string, password: string) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill(user)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/ui\/(overview|packages)/)
}

/** Drops files on an element as a person dragging them from their desktop would. */
async function dropFiles(page: Page, testId: string, files: { name: string; content: string }[]) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer()
    for (const f of list) dt.items.add(new File([f.content], f.name, { type: 'application/octet-stream' }))
    return dt
  }, files)
  await page.getByTestId(testId).dispatchEvent('dragover', { dataTransfer: transfer })
  await page.getByTestId(testId).dispatchEvent('drop', { dataTransfer: transfer })
}

test('deploy by drag-and-drop with properties, see checksums, copy with a dry run, download, delete', async ({
  browser,
  page,
}, info) => {
  test.setTimeout(90_000)
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const suffix = crypto.randomBytes(3).toString('hex')
  const repoA = `tree-a-${suffix}`
  const repoB = `tree-b-${suffix}`
  for (const repo of [repoA, repoB]) {
    const created = await page.request.put(`/api/repositories/${repo}`, {
      headers,
      data: { rclass: 'local', packageType: 'generic' },
    })
    expect(created.status()).toBe(201)
  }
  const content = `release notes ${suffix}\n`.repeat(50)

  // The repository, opened from its link; deploy by dropping a file, into a folder, with properties.
  await page.goto(`/ui/artifacts/browse/tree/General/${repoA}`)
  const tree = page.getByRole('tree', { name: 'Repositories' })
  await expect(tree.getByRole('treeitem', { name: new RegExp(repoA) })).toHaveAttribute('aria-selected', 'true')
  await page.getByRole('button', { name: 'Deploy' }).click()
  const dialog = page.getByRole('dialog', { name: `Deploy to ${repoA}` })
  await dialog.getByRole('textbox', { name: 'Target path' }).fill('docs/1.0')
  await dialog.getByRole('textbox', { name: 'Properties' }).fill('release=1.0;team=core,docs')
  await dropFiles(page, 'deploy-dropzone', [
    { name: 'notes.txt', content },
    { name: 'extra.txt', content: 'second file' },
  ])
  await expect(dialog.getByText('notes.txt')).toBeVisible()
  await dialog.getByRole('button', { name: 'Deploy' }).click()
  await expect(dialog.getByText('Deployed', { exact: true })).toHaveCount(2)
  await expect(dialog.getByRole('progressbar', { name: 'Progress of notes.txt' })).toHaveAttribute('aria-valuenow', '100')
  await page.screenshot({ path: info.outputPath('deploy.png') })
  await dialog.getByRole('button', { name: 'Close' }).click()

  // It appears in the tree, with its checksums and properties.
  await tree.getByRole('treeitem', { name: /docs/ }).click()
  await tree.getByRole('treeitem', { name: /^1\.0/ }).click()
  await tree.getByRole('treeitem', { name: 'notes.txt' }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/artifacts/browse/tree/General/${repoA}/docs/1\\.0/notes\\.txt$`))
  const general = page.getByRole('table', { name: 'General' })
  await expect(general).toContainText(sha256(content))
  await expect(general).toContainText('admin')
  await page.screenshot({ path: info.outputPath('general.png') })
  await page.getByRole('tab', { name: 'Properties' }).click()
  const props = page.getByRole('table', { name: 'Properties' })
  await expect(props).toContainText('release')
  await expect(props).toContainText('core, docs')
  // Add one more by hand.
  await page.getByRole('textbox', { name: 'Property name' }).fill('qa')
  await page.getByRole('textbox', { name: 'Values (comma-separated)' }).fill('passed')
  await page.getByRole('button', { name: 'Add' }).click()
  await expect(props).toContainText('passed')

  // Copy to the second repository: the dry run first.
  await page.getByRole('button', { name: 'Copy' }).click()
  const copy = page.getByRole('dialog', { name: /^Copy/ })
  await copy.getByRole('combobox', { name: 'Target repository' }).click()
  await page.getByRole('option', { name: repoB }).click()
  await expect(copy.getByRole('button', { name: 'Copy' })).toBeDisabled()
  await copy.getByRole('button', { name: 'Dry run' }).click()
  await expect(copy.getByRole('status')).toContainText('1 file(s) would be copied')
  await page.screenshot({ path: info.outputPath('copy-dry-run.png') })
  await copy.getByRole('button', { name: 'Copy' }).click()
  await expect(copy).toBeHidden()

  // The copy: opened by its link, downloaded, compared.
  await page.goto(`/ui/artifacts/browse/tree/General/${repoB}/docs/1.0/notes.txt`)
  await expect(page.getByRole('table', { name: 'General' })).toContainText(sha256(content))
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()])
  const downloaded = fs.readFileSync(await download.path())
  expect(sha256(downloaded)).toBe(sha256(content))
  expect(download.suggestedFilename()).toBe('notes.txt')

  // A reader sees the file and none of the actions; every change is refused to them and to anonymous callers.
  await page.request.post('/ui/api/v1/ui/admin/users', {
    headers,
    data: { name: `e2e-reader-${suffix}`, password: 'reader-password-1' },
  })
  const granted = await page.request.post('/ui/api/v1/ui/admin/permissions', {
    headers,
    data: {
      name: `e2e-tree-read-${suffix}`,
      repositories: {
        resources: { names: [repoB], include: [], exclude: [] },
        grants: [{ kind: 'user', name: `e2e-reader-${suffix}`, actions: ['read'] }],
      },
    },
  })
  expect(granted.status()).toBe(201)
  const context = await browser.newContext()
  const reader = await context.newPage()
  await signIn(reader, `e2e-reader-${suffix}`, 'reader-password-1')
  await reader.goto(`/ui/artifacts/browse/tree/General/${repoB}/docs/1.0/notes.txt`)
  await expect(reader.getByRole('table', { name: 'General' })).toContainText(sha256(content))
  await expect(reader.getByRole('link', { name: 'Download' })).toBeVisible()
  for (const name of ['Delete', 'Move', 'Deploy']) await expect(reader.getByRole('button', { name })).toHaveCount(0)
  await expect(reader.getByRole('tree')).not.toContainText(repoA)
  const readerHeaders = { 'x-csrf-token': await csrfOf(reader) }
  const tries = [
    reader.request.delete(`/ui/api/v1/ui/artifacts/node?repoKey=${repoB}&path=docs/1.0/notes.txt`, { headers: readerHeaders }),
    reader.request.put('/ui/api/v1/ui/artifacts/properties', {
      headers: readerHeaders,
      data: { repoKey: repoB, path: 'docs/1.0/notes.txt', name: 'x', values: ['1'] },
    }),
    reader.request.put(`/ui/api/v1/ui/artifacts/deploy/${repoB}/new.txt`, { headers: readerHeaders, data: 'x' }),
    reader.request.post('/ui/api/v1/ui/artifacts/move', {
      headers: readerHeaders,
      data: { repoKey: repoB, path: 'docs', targetRepoKey: repoA },
    }),
  ]
  for (const answer of await Promise.all(tries)) expect([403, 404]).toContain(answer.status())
  await context.close()
  const anonymous = await browser.newContext()
  const anon = await anonymous.newPage()
  const anonDelete = await anon.request.delete(`/ui/api/v1/ui/artifacts/node?repoKey=${repoB}&path=docs`)
  expect(anonDelete.status()).toBe(401)
  await anon.goto(`/ui/artifacts/browse/tree/General/${repoB}`)
  await expect(anon).toHaveURL(/\/ui\/login/)
  await anonymous.close()

  // Delete, after confirming: gone from the tree and from the server.
  await page.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete' })
  await expect(confirm).toContainText('docs/1.0/notes.txt')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  // The folders held only this file: the repository is selected.
  await expect(page).toHaveURL(new RegExp(`/ui/artifacts/browse/tree/General/${repoB}$`))
  await expect(page.getByRole('tree').getByRole('treeitem', { name: 'notes.txt' })).toHaveCount(0)
  expect((await page.request.get(`/artifactory/${repoB}/docs/1.0/notes.txt`)).status()).toBe(404)
  await page.screenshot({ path: info.outputPath('after-delete.png') })
})

test('the tree pages a large folder as it scrolls and moves with the keyboard', async ({ page }) => {
  test.setTimeout(90_000)
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const repo = `tree-big-${crypto.randomBytes(3).toString('hex')}`
  await page.request.put(`/api/repositories/${repo}`, { headers, data: { rclass: 'local', packageType: 'generic' } })
  // 450 files: more than two pages of children.
  const names = Array.from({ length: 450 }, (_, i) => `file-${String(i).padStart(3, '0')}.txt`)
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(names.slice(i, i + 50).map((n) => page.request.put(`/artifactory/${repo}/many/${n}`, { headers, data: n })))
  }
  // A deep link to the last file: the tree pages through the folder to it.
  await page.goto(`/ui/artifacts/browse/tree/General/${repo}/many/file-449.txt`)
  const tree = page.getByRole('tree', { name: 'Repositories' })
  await expect(tree.getByRole('treeitem', { name: 'file-449.txt' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('heading', { name: 'file-449.txt' })).toBeVisible()
  // Drawn are only the rows in view, not all 450.
  expect(await tree.getByRole('treeitem').count()).toBeLessThan(120)
  // The keyboard: up to the previous file, left to the folder, left again collapses it.
  // The node opens first; the children before it load as their row comes into view.
  await expect(tree.getByRole('treeitem', { name: 'file-448.txt' })).toBeVisible()
  await tree.focus()
  await page.keyboard.press('ArrowUp')
  await expect(page).toHaveURL(/many\/file-448\.txt$/)
  await page.keyboard.press('ArrowLeft')
  await expect(page).toHaveURL(new RegExp(`${repo}/many$`))
  await page.keyboard.press('ArrowLeft')
  await expect(tree.getByRole('treeitem', { name: /^many/ })).toHaveAttribute('aria-expanded', 'false')
  await expect(tree.getByRole('treeitem', { name: 'file-448.txt' })).toHaveCount(0)
})
