import crypto from 'node:crypto'
import { expect, test } from '@playwright/test'
import { BuildTexts } from '@trove/contracts/builds'
import { expectAccessible } from './axe'
import { csrfOf, signInAsAdmin } from './signIn'

const sums = (content: string) =>
  Object.fromEntries(['sha1', 'sha256', 'md5'].map((a) => [a, crypto.createHash(a).update(content).digest('hex')]))

/**
 * Build info published the way CI tools publish it, matched to a file deployed with a plain PUT,
 * then browsed, compared and cleaned up in the console; and what others may not see.
 */
test('a published build is listed, opened, its artifact linked to the stored file, two runs compared and one deleted', async ({
  browser,
  page,
}, info) => {
  test.setTimeout(60_000)
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const id = crypto.randomBytes(3).toString('hex')
  const repo = `builds-e2e-${id}`
  const name = `e2e-app-${id}`
  const path = 'com/acme/app/1.0/app-1.0.jar'
  const jar = `the jar built by run 1 of ${name}\n`

  expect(
    (
      await page.request.put(`/api/repositories/${repo}`, { headers, data: { rclass: 'local', packageType: 'generic' } })
    ).status(),
  ).toBe(201)
  expect((await page.request.put(`/artifactory/${repo}/${path}`, { headers, data: jar })).status()).toBe(201)
  const publish = async (number: string, day: number, artifact: string, dependencies: object[]) =>
    expect(
      (
        await page.request.put('/api/build', {
          headers,
          data: {
            version: '1.0.1',
            name,
            number,
            started: `2026-03-0${day}T10:00:00.000+0000`,
            durationMillis: 95_000,
            url: `https://ci.example.com/${name}/${number}`,
            agent: { name: 'GitHub Actions', version: '2.3' },
            properties: { 'buildInfo.env.JAVA_HOME': '/opt/java/17', 'release.stage': 'qa' },
            modules: [
              { id: 'com.acme:app:1.0', artifacts: [{ type: 'jar', name: 'app-1.0.jar', ...sums(artifact) }], dependencies },
            ],
          },
        })
      ).status(),
    ).toBe(204)
  await publish('1', 1, jar, [])
  await publish('2', 2, `${jar}rebuilt\n`, [{ type: 'jar', id: 'org.acme:lib:2.0', ...sums('lib') }])

  // The list, through the sidebar, filtered down to this build.
  await page.goto('/ui/overview')
  await page.getByRole('navigation', { name: 'Application' }).getByRole('link', { name: 'Builds' }).click()
  await expect(page).toHaveURL(/\/ui\/builds$/)
  await expect(page.getByRole('heading', { name: 'Builds', level: 1 })).toBeVisible()
  await page.getByRole('textbox', { name: 'Filter builds' }).fill(name)
  const list = page.getByRole('table', { name: 'Builds' })
  await expect(list.getByRole('row')).toHaveCount(2)
  const row = list.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('#2')
  await expectAccessible(page)
  await page.screenshot({ path: info.outputPath('builds.png'), fullPage: true })

  // Its runs, then run 1 with its module and the artifact linked to the file in the artifact tree.
  await row.getByRole('link', { name, exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/builds/${name}$`))
  const runs = page.getByRole('table', { name: `Runs of ${name}` })
  await expect(runs.getByRole('row')).toHaveCount(3)
  await expect(runs.getByRole('row', { name: /#1/ })).toContainText('GitHub Actions/2.3')
  await expect(runs.getByRole('link', { name: 'CI page of run 1' })).toHaveAttribute('href', `https://ci.example.com/${name}/1`)
  await runs.getByRole('link', { name: '#1' }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/builds/${name}/1$`))
  await expect(page.getByRole('heading', { name: `${name} #1`, level: 1 })).toBeVisible()
  const module = page.getByRole('region', { name: 'Module com.acme:app:1.0' })
  await expect(module.getByRole('link', { name: 'app-1.0.jar' })).toHaveAttribute(
    'href',
    `/ui/artifacts/browse/tree/General/${repo}/${path}`,
  )
  await expectAccessible(page)
  await page.screenshot({ path: info.outputPath('run.png'), fullPage: true })
  await page.getByRole('tab', { name: /Environment/ }).click()
  await expect(page.getByRole('table', { name: 'Environment' })).toContainText('JAVA_HOME')
  await expect(page).toHaveURL(/\?tab=environment$/)

  // Two runs compared: the artifact changed, a dependency came.
  await page.getByRole('link', { name: `Runs of ${name}` }).click()
  await page.getByRole('checkbox', { name: 'Compare run 1' }).check()
  await page.getByRole('checkbox', { name: 'Compare run 2' }).check()
  await expect(page.getByRole('heading', { name: 'Run 2 compared with run 1' })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Changed artifacts' }).getByRole('row', { name: /app-1\.0\.jar/ })).toContainText(
    'changed',
  )
  await expect(
    page.getByRole('table', { name: 'Changed dependencies' }).getByRole('row', { name: /org\.acme:lib:2\.0/ }),
  ).toContainText('added')
  await expectAccessible(page)
  await page.screenshot({ path: info.outputPath('runs-diff.png'), fullPage: true })

  // Run 1 deleted, after confirming.
  await page.getByRole('button', { name: 'Delete run 1' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText(BuildTexts.deleteRunBody)
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(runs.getByRole('row')).toHaveCount(2)
  await expect(runs.getByRole('link', { name: '#1' })).toHaveCount(0)
  expect((await page.request.get(`/ui/api/v1/ui/builds/${name}/1`)).status()).toBe(404)

  // An old link (shell §2.4) opens the run it names, under its own URL.
  await page.goto(`/ui/#/builds/${name}/2/1457431406000/published`)
  await expect(page).toHaveURL(new RegExp(`/ui/builds/${name}/2$`))
  await expect(page.getByRole('heading', { name: `${name} #2`, level: 1 })).toBeVisible()

  // A user who may read the repository but not the build sees neither it nor its runs.
  const reader = `e2e-build-reader-${id}`
  expect(
    (
      await page.request.post('/ui/api/v1/ui/admin/users', { headers, data: { name: reader, password: 'reader-password-1' } })
    ).status(),
  ).toBe(201)
  expect(
    (
      await page.request.post('/ui/api/v1/ui/admin/permissions', {
        headers,
        data: {
          name: `builds-e2e-read-${id}`,
          repositories: {
            resources: { names: [repo], include: [], exclude: [] },
            grants: [{ kind: 'user', name: reader, actions: ['read'] }],
          },
        },
      })
    ).status(),
  ).toBe(201)
  const readerContext = await browser.newContext()
  const other = await readerContext.newPage()
  await other.goto('/ui/login')
  await other.getByRole('textbox', { name: 'Username' }).fill(reader)
  await other.getByRole('textbox', { name: 'Password' }).fill('reader-password-1')
  await other.getByRole('button', { name: 'Log In' }).click()
  await expect(other).toHaveURL(/\/ui\/(overview|packages)/)
  await other.goto('/ui/builds')
  await expect(other.getByRole('heading', { name: 'Builds', level: 1 })).toBeVisible()
  await expect(other.getByText(BuildTexts.noBuilds).or(other.getByRole('table', { name: 'Builds' }))).toBeVisible()
  await expect(other.getByRole('link', { name })).toHaveCount(0)
  await other.goto(`/ui/builds/${name}/2`)
  await expect(other).toHaveURL(/\/ui\/404$/)
  expect((await other.request.get(`/ui/api/v1/ui/builds/${name}`)).status()).toBe(404)
  await readerContext.close()

  // Nobody signed in: sent to sign in, and the calls refuse.
  const anonymousContext = await browser.newContext()
  const anonymous = await anonymousContext.newPage()
  await anonymous.goto(`/ui/builds/${name}`)
  await expect(anonymous).toHaveURL(/\/ui\/login/)
  expect((await anonymous.request.get('/ui/api/v1/ui/builds')).status()).toBe(401)
  expect((await anonymous.request.get(`/ui/api/v1/ui/builds/${name}/2`)).status()).toBe(401)
  await anonymousContext.close()
})
