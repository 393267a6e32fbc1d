import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { type GitServer, startGitServer } from '../../apps/server/test/gitServer'
import { expectedGitAuthorization, startVendor, type VendorStandIn } from '../../apps/server/test/gitVendors'
import { type OwnServer, shoot, signInAt, startOwnServer } from '../ownServer'

// Git integrations serve the security scanner, so this journey runs its own server with the
// scanner module on (the shared servers run the repository alone), on its own data dir.
const dataDir = `${process.env.TROVE_E2E_DATA_DIR}/git-integrations`

const REPOS = ['platform/api', 'platform/web', 'platform/docs']
// platform/api pins lodash 4.17.20, which this real advisory (CVE-2021-23337, high) names.
const LODASH = 'GHSA-35jh-r3h4-6jhm'
const ADVISORY = fileURLToPath(new URL(`../../apps/server/test/fixtures/osv/${LODASH}.json`, import.meta.url))
const filesOf = (r: string): Record<string, string> => {
  const name = r.replace('/', '-')
  if (r !== 'platform/api') return { 'package.json': JSON.stringify({ name, version: '1.0.0' }) }
  const lodash = { version: '4.17.20', resolved: 'https://registry.npmjs.org/lodash/-/lodash-4.17.20.tgz' }
  return {
    'package.json': JSON.stringify({ name, version: '1.0.0', dependencies: { lodash: '4.17.20' } }),
    'package-lock.json': JSON.stringify({
      name,
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name, version: '1.0.0', dependencies: { lodash: '4.17.20' } }, 'node_modules/lodash': lodash },
    }),
  }
}
let server: OwnServer
let git: GitServer
let gitlab: VendorStandIn
const heads: Record<string, string> = {}

test.beforeAll(async () => {
  test.setTimeout(60_000)
  git = await startGitServer(expectedGitAuthorization('gitlab', 'ada', 'glpat-e2e-token'))
  for (const r of REPOS) heads[r] = git.addRepository(r, filesOf(r))
  gitlab = await startVendor('gitlab', { userName: 'ada', token: 'glpat-e2e-token', repositories: REPOS, cloneUrl: git.cloneUrl })
  server = await startOwnServer('git-integrations', { TROVE_MODULES: 'repository,scanner' })
})
test.afterAll(async () => {
  server?.stop()
  await gitlab?.close()
  await git?.close()
})

test('an admin connects GitLab, picks two repositories for the scanner, they are cloned and scanned, and one shows its advisory', async ({
  page,
}) => {
  test.setTimeout(90_000)
  await signInAt(page, server.url)
  // The advisory database, as an administrator's script fills it.
  const csrf = (await page.context().cookies()).find((c) => c.name === 'trove_csrf')?.value ?? ''
  const imported = await page.request.post(`${server.url}/ui/api/v1/xray/ui/admin/database/import`, {
    headers: { 'x-csrf-token': csrf },
    data: JSON.parse(fs.readFileSync(ADVISORY, 'utf8')),
  })
  expect(imported.status(), await imported.text()).toBe(200)
  // From the catalogue: filtered down to GitLab, its Set Up opens the vendor's table.
  await page.goto(`${server.url}/ui/integrations`)
  const cards = page.getByRole('list', { name: ScreenMessages.integrationsTitle }).getByRole('listitem')
  await page.getByPlaceholder(Messages.searchIntegrations).fill('gitlab')
  await expect(cards).toHaveText(['GitLab', 'GitLab CI/CD'])
  await cards.getByRole('button', { name: 'GitLab', exact: true }).click()
  await page.getByRole('dialog', { name: 'GitLab' }).getByRole('button', { name: Messages.setUp }).click()
  await expect(page).toHaveURL(/\/ui\/integrations\/vendor\/list\/gitlab$/)
  await expect(page.getByRole('heading', { name: 'GitLab integrations' })).toBeVisible()
  await expect(page.getByText('No GitLab integration yet')).toBeVisible()

  await page.getByRole('button', { name: 'Add integration' }).click()
  const dialog = page.getByRole('dialog', { name: 'New GitLab integration' })
  await dialog.getByRole('textbox', { name: 'Integration name' }).fill('GitLab on-prem')
  await dialog.getByRole('textbox', { name: 'URL' }).fill(gitlab.url)
  await dialog.getByRole('textbox', { name: 'User name' }).fill('ada')
  await dialog.getByLabel('Token').fill('glpat-e2e-token')
  const create = dialog.getByRole('button', { name: 'Create' })
  await expect(create).toBeDisabled()
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Connection successful' })).toContainText('signed in as ada')
  await expect(create).toBeEnabled()
  await shoot(page, 'git-integration-modal')
  await create.click()

  const toast = page.getByText(new RegExp(`^${Messages.integrationCreated} gitlab-[0-9a-f]{12}$`))
  await expect(toast).toBeVisible()
  const key = ((await toast.textContent()) ?? '').split(' ').at(-1) as string

  await expect(page.getByRole('dialog', { name: 'Select service' })).toBeVisible()
  await page.getByRole('button', { name: 'Security scanner' }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/gitRepoScan/selectRepos\\?vcsType=gitlab&integrationId=${key}$`))
  await page.getByRole('checkbox', { name: 'platform/api' }).check()
  await page.getByRole('checkbox', { name: 'platform/docs' }).check()
  await page.getByRole('button', { name: 'Save selection (2)' }).click()

  const selected = page.getByRole('table', { name: 'Repositories selected for scanning' })
  for (const r of ['platform/api', 'platform/docs']) {
    const row = selected.getByRole('row').filter({ hasText: r })
    await expect(row.getByText('Cloned')).toBeVisible({ timeout: 20_000 })
    await expect(row).toContainText((heads[r] as string).slice(0, 12))
    // The clone is on the server's disk, at the commit the git server has.
    const dir = path.join(dataDir, 'git', key, r.replace('/', '__'))
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name).toBe(r.replace('/', '-'))
  }
  expect(fs.existsSync(path.join(dataDir, 'git', key, 'platform__web'))).toBe(false)
  // The scanner reads each clone's manifests: the lodash pin is found, the other is clean.
  const api = selected.getByRole('row').filter({ hasText: 'platform/api' })
  await expect(api.getByText(ScreenMessages.gitScanScanned)).toBeVisible({ timeout: 20_000 })
  await expect(api.getByLabel('Vulnerabilities')).toHaveText('1 high')
  const docs = selected.getByRole('row').filter({ hasText: 'platform/docs' })
  await expect(docs.getByText(ScreenMessages.gitScanScanned)).toBeVisible({ timeout: 20_000 })
  await expect(docs).toContainText(ScreenMessages.gitScanClean)
  await shoot(page, 'git-select-repos')

  await api.getByRole('button', { name: 'Findings of platform/api' }).click()
  const findings = page.getByRole('dialog', { name: 'Findings of platform/api' })
  const finding = findings
    .getByRole('table', { name: ScreenMessages.gitScanFindings })
    .getByRole('row')
    .filter({ hasText: LODASH })
  await expect(finding).toContainText('CVE-2021-23337')
  await expect(finding).toContainText('high')
  await expect(finding).toContainText('lodash')
  await expect(finding).toContainText('package-lock.json')
  await expect(finding).toContainText('4.17.21')
  await expect(finding).toContainText('Command Injection in lodash')
  await expect(findings).toContainText((heads['platform/api'] as string).slice(0, 12))
  // The dialog has faded in before it is photographed.
  await expect(findings).toHaveCSS('opacity', '1')
  await shoot(page, 'git-repo-findings')
  await findings.getByRole('button', { name: 'Close' }).click()
  await expect(findings).toBeHidden()

  await page.goto(`${server.url}/ui/integrations/vendor/list/gitlab`)
  const row = page.getByRole('row').filter({ hasText: 'GitLab on-prem' })
  await expect(row.getByText('CONNECTED')).toBeVisible()
  await expect(row).toContainText('Security scanner')
  await shoot(page, 'git-vendor-table')
})

test('the repository selection opened without an integration says where to pick one, and calls nothing', async ({ page }) => {
  await signInAt(page, server.url)
  const refused: string[] = []
  page.on('response', (r) => {
    if (r.url().includes('/ui/api/') && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`)
  })
  await page.goto(`${server.url}/ui/gitRepoScan/selectRepos`)
  await expect(page.getByRole('status').filter({ hasText: 'Repositories are selected per git integration' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(refused).toEqual([])
  await page.getByRole('status').getByRole('link', { name: 'Integrations' }).click()
  await expect(page).toHaveURL(/\/ui\/integrations$/)
})
