import { gzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'

/** Foundation target: the login page loads at most 150 KB of gzipped JavaScript. */
const LOGIN_PAGE_JS_BUDGET_KB = 150

test('the login page downloads only what sign-in needs, within its JavaScript budget', async ({ page }) => {
  const scripts = new Map<string, Buffer>()
  page.on('response', async (response) => {
    if ((response.headers()['content-type'] ?? '').includes('javascript')) {
      scripts.set(new URL(response.url()).pathname, await response.body())
    }
  })
  await page.goto('/ui/login', { waitUntil: 'networkidle' })
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible()

  const files = [...scripts.keys()]
  // The application frame, the shell's runtime and the admin screens load after sign-in, not before.
  for (const name of ['AppShell', 'shellRuntime', 'ShellScreens', 'OverviewPage', 'schemas']) {
    expect(
      files.filter((f) => f.includes(`/${name}-`)),
      name,
    ).toEqual([])
  }
  // The same measure as the benchmark: every script gzipped at level 9, summed.
  const kb = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0) / 1024
  expect(kb, files.join('\n')).toBeLessThanOrEqual(LOGIN_PAGE_JS_BUDGET_KB)
})
