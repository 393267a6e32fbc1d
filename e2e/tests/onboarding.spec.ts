import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { writeOciImage } from '../../apps/server/test/ociImage'
import { ADMIN_PASSWORD, ONBOARDING_URL } from '../playwright.config'

/** With TROVE_SCREENSHOTS=<dir>, each step is also captured at 1280 px in both themes. */
async function capture(page: Page, name: string) {
  const dir = process.env.TROVE_SCREENSHOTS
  if (!dir) return
  fs.mkdirSync(dir, { recursive: true })
  for (const scheme of ['light', 'dark']) {
    await page.evaluate((s) => document.documentElement.setAttribute('data-mantine-color-scheme', s), scheme)
    await page.screenshot({ path: path.join(dir, `${name}-${scheme}.png`), fullPage: true })
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'))
}

/** The text of a set-me-up snippet as the page shows it. */
const snippet = async (page: Page, id: string) => {
  const text = await page.locator(`[data-snippet="${id}"] pre`).textContent()
  return `${text}\n`
}

/** Runs shown lines in a shell, filling in only the `<IMAGE>`-style parts. */
function runShown(text: string, cwd: string, env: Record<string, string>, values: Record<string, string> = {}) {
  const filled = Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`<${k}>`, v), text)
  // The runner's own npm settings (npm passes them down as npm_config_*) would override the files.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)))
  const result = spawnSync('bash', ['-euc', filled], { cwd, encoding: 'utf8', env: { ...inherited, ...env } })
  expect(result.status, `${filled}\n${result.stdout}\n${result.stderr}`).toBe(0)
}

test.use({ baseURL: ONBOARDING_URL, viewport: { width: 1280, height: 900 } })

// The first ten minutes on a brand-new instance: questionnaire, quick setup for npm and Docker,
// set-me-up with a fresh token, the real npm and skopeo with exactly the lines shown, and the
// getting-started checklist ticked by what was done.
test('a new admin goes from an empty instance to a working npm install and image push', async ({ page }) => {
  test.setTimeout(180_000)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-e2e-first-run-'))

  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/ui\/onboarding$/)
  await expect(page.getByRole('heading', { name: 'Welcome to Trove' })).toBeVisible()
  await capture(page, '1-purpose')

  // Next without an answer names the missing field; the answer is saved as it is given.
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText('This field is mandatory')).toBeVisible()
  await page.getByRole('radio', { name: 'Commercial' }).check()
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByRole('textbox', { name: 'Company name' }).fill('Acme')
  await page.getByRole('combobox', { name: 'Your role' }).click()
  await page.getByRole('option', { name: 'Software Developer' }).click()
  await capture(page, '2-details')
  await page.getByRole('button', { name: 'Next' }).click()
  // A reload resumes on the step the user was on, with the answers kept.
  await expect(page.getByRole('checkbox', { name: 'Binary management' })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('checkbox', { name: 'Binary management' })).toBeVisible()
  await page.getByRole('checkbox', { name: 'Binary management' }).check()
  await page.getByRole('checkbox', { name: 'Container Registry' }).check()
  await capture(page, '3-features')
  await page.getByRole('button', { name: 'Finish' }).click()

  // Quick setup for npm and Docker.
  await expect(page).toHaveURL(/\/ui\/admin\/onboarding\/quick-setup$/)
  await page.getByRole('checkbox', { name: 'npm' }).check()
  await page.getByRole('checkbox', { name: 'Docker' }).check()
  await capture(page, '4-quick-setup')
  await page.getByRole('button', { name: /Create/ }).click()
  const made = page.getByRole('dialog')
  await expect(made.getByText('npm-virtual')).toBeVisible()
  await expect(made.getByText('docker-local')).toBeVisible()
  await capture(page, '5-quick-setup-done')
  await made.getByRole('button', { name: 'Done' }).click()
  await expect(made).toBeHidden()

  // Set-me-up with a fresh token: npm publishes to npm-local with the lines shown…
  await page.getByRole('button', { name: 'Point your package client at it (Set Me Up)' }).click()
  const panel = page.getByRole('dialog', { name: 'Set Me Up' })
  const pickRepository = async (key: string) => {
    await panel.getByRole('combobox', { name: 'Repository' }).click()
    await page.getByRole('option', { name: new RegExp(`^${key} `) }).click()
    await expect(panel.locator('[data-snippet]').first()).toBeVisible()
  }
  await pickRepository('npm-local')
  await expect(panel.getByText('<TOKEN>').first()).toBeVisible()
  await panel.getByRole('button', { name: 'Generate Token & Create Instructions' }).click()
  await expect(panel.getByText(/trove_at_/).first()).toBeVisible()
  await capture(page, '6-set-me-up')
  const npmEnv = (rc: string) => ({
    npm_config_userconfig: rc,
    npm_config_cache: path.join(work, 'npm-cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  })
  fs.mkdirSync(path.join(work, 'lib'))
  fs.writeFileSync(path.join(work, 'lib/package.json'), JSON.stringify({ name: 'first-run-demo', version: '1.0.0' }))
  fs.writeFileSync(path.join(work, 'lib/index.js'), 'module.exports = "first run"\n')
  fs.writeFileSync(path.join(work, 'local.npmrc'), await snippet(page, 'npmrc'))
  runShown(await snippet(page, 'npm-publish'), path.join(work, 'lib'), npmEnv(path.join(work, 'local.npmrc')))

  // …and installs it through npm-virtual.
  await pickRepository('npm-virtual')
  fs.mkdirSync(path.join(work, 'app'))
  fs.writeFileSync(path.join(work, 'app/package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }))
  fs.writeFileSync(path.join(work, 'virtual.npmrc'), await snippet(page, 'npmrc'))
  runShown(await snippet(page, 'npm-install'), path.join(work, 'app'), npmEnv(path.join(work, 'virtual.npmrc')), {
    PACKAGE: 'first-run-demo',
  })
  expect(fs.readFileSync(path.join(work, 'app/node_modules/first-run-demo/index.js'), 'utf8')).toBe(
    'module.exports = "first run"\n',
  )

  // skopeo pushes an image to docker-local with the lines shown.
  await pickRepository('docker-local')
  const { layout } = writeOciImage(path.join(work, 'image'), { content: 'first run\n', tag: '1.0' })
  spawnSync('tar', ['-cf', path.join(work, 'hello.tar'), '-C', layout, '.'])
  runShown(
    await snippet(page, 'skopeo'),
    work,
    { REGISTRY_AUTH_FILE: path.join(work, 'auth.json') },
    { IMAGE: 'hello', TAG: '1.0' },
  )
  await page.keyboard.press('Escape')

  // Getting started shows those steps ticked.
  await page.goto('/ui/get_started')
  for (const step of ['repository', 'package', 'token']) {
    await expect(page.locator(`[data-step="${step}"]`)).toHaveAttribute('data-done', 'true')
  }
  await expect(page.locator('[data-step="mfa"]')).toHaveAttribute('data-done', 'false')
  await expect(page.getByText('3 of 5 done')).toBeVisible()
  await capture(page, '7-getting-started')

  // Signing in again goes straight to the landing page: the questionnaire was sent.
  await page.goto('/ui/logout')
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/mission_control\/topology$/)
  // A single node started without TROVE_MODULES is the whole product: scanner and release bundles run,
  // and the Security & Compliance administration is there.
  for (const service of ['Artifact Repository', 'Security Scanner', 'Distribution']) {
    await expect(page.getByRole('region', { name: service })).toContainText('Running')
  }
  await page.goto('/ui/admin/security_policies')
  await expect(page).toHaveURL(/\/ui\/admin\/security_policies$/)
  await expect(page.getByRole('heading', { name: 'Policies' })).toBeVisible()
  fs.rmSync(work, { recursive: true, force: true })
})
