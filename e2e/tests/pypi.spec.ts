import { expect, test } from '@playwright/test'
import { signInAsAdmin } from './signIn'

test('an admin quick-creates the PyPI samples, and their simple index answers pip', async ({ page }) => {
  await signInAsAdmin(page)
  await page.goto('/ui/admin/repositories')
  await page.getByRole('main').getByLabel('Package type').selectOption('pypi')
  await page.getByLabel('Upstream URL of the remote (optional)').fill('https://pypi.example.invalid')
  await page.getByRole('button', { name: /^Create pypi-local, pypi-remote, pypi-virtual$/ }).click()
  await expect(page.getByRole('status')).toContainText('Created pypi-local, pypi-remote, pypi-virtual.')
  const table = page.getByRole('table', { name: 'Repositories' })
  for (const key of ['pypi-local', 'pypi-remote', 'pypi-virtual']) {
    await expect(table.getByRole('button', { name: `Edit ${key}` })).toBeVisible()
  }
  // The row shows what pip is configured with (Trove's index of the remote); the upstream stays in its settings.
  const origin = new URL(page.url()).origin
  await expect(table.getByRole('row', { name: /pypi-remote/ })).toContainText(`${origin}/api/pypi/pypi-remote/simple`)
  expect(((await (await page.request.get('/api/repositories/pypi-remote')).json()) as { url?: string }).url).toBe(
    'https://pypi.example.invalid',
  )
  // Each type by the name its own tools use, as the form's select offers it.
  await expect(table.getByRole('row', { name: /pypi-remote/ }).getByRole('cell', { name: 'PyPI', exact: true })).toBeVisible()
  await expect(page.getByRole('main').getByLabel('Package type')).toHaveValue('pypi')
  await expect(page.getByRole('main').getByLabel('Package type').locator('option:checked')).toHaveText('PyPI')
  await page.screenshot({ path: test.info().outputPath('pypi-repositories.png'), fullPage: true })

  // The signed-in browser reads the index as pip would: PEP 691 JSON by Accept, and the
  // protocol's own 404 for a project nobody uploaded.
  const list = await page.request.get('/api/pypi/pypi-virtual/simple/', {
    headers: { accept: 'application/vnd.pypi.simple.v1+json' },
  })
  expect(list.status()).toBe(200)
  expect(await list.json()).toMatchObject({ meta: { 'api-version': '1.1' }, projects: [] })
  const missing = await page.request.get('/api/pypi/pypi-local/simple/nothing-here/')
  expect(missing.status()).toBe(404)
  expect(await missing.text()).toContain('404 Not Found')
})
