import crypto from 'node:crypto'
import { type APIRequestContext, expect, request as requests, test } from '@playwright/test'
import { signInAt, startOwnServer } from '../ownServer'
import { csrfOf, signInAsAdmin } from './signIn'

/**
 * Finding 1 of the security probe, in a real browser: a user who may only deploy uploads files
 * that, opened by an admin, would call the console's API with the admin's session and make the
 * uploader an admin. Whatever the file's type, nothing of it may act in the console's origin.
 */

/** What the attacker's script does: promote a user with the reader's session and CSRF cookie. */
const promote = (user: string) =>
  `(function(){document.title='PWNED';var c=(document.cookie.match(/trove_csrf=([^;]+)/)||[])[1]||'';` +
  `fetch('/ui/api/v1/ui/admin/users/${user}',{method:'PUT',credentials:'include',headers:{'content-type':'application/json','x-csrf-token':c},body:JSON.stringify({admin:true})})})()`

const attackFiles = (repo: string, user: string): Record<string, { type: string; body: string }> => ({
  'evil.html': { type: 'text/html', body: `<html><body><script>${promote(user)}</script></body></html>` },
  'loader.html': { type: 'text/html', body: `<html><body><script src="/artifactory/${repo}/evil.js"></script></body></html>` },
  'evil.js': { type: 'text/javascript', body: promote(user) },
  'evil.svg': {
    type: 'image/svg+xml',
    body: `<svg xmlns="http://www.w3.org/2000/svg" onload="${promote(user).replace(/"/g, '&quot;')}"><script>${promote(user)}</script></svg>`,
  },
  'evil.xhtml': {
    type: 'application/xhtml+xml',
    body: `<html xmlns="http://www.w3.org/1999/xhtml"><body><script>//<![CDATA[\n${promote(user)}\n//]]></script></body></html>`,
  },
  'notes.txt': { type: 'text/plain', body: `<html><body><script>${promote(user)}</script></body></html>` },
})

async function isAdmin(api: APIRequestContext, user: string): Promise<boolean> {
  const res = await api.get(`/ui/api/v1/ui/admin/users/${user}`)
  expect(res.status()).toBe(200)
  return (await res.json()).admin === true
}

test('files a deploy-only user uploads never act as the console, opened by an admin', async ({ page, baseURL }) => {
  test.setTimeout(60_000)
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const suffix = crypto.randomBytes(3).toString('hex')
  const repo = `site-${suffix}`
  const attacker = `mallory-${suffix}`
  const control = `control-${suffix}`
  expect(
    (
      await page.request.put(`/api/repositories/${repo}`, { headers, data: { rclass: 'local', packageType: 'generic' } })
    ).status(),
  ).toBe(201)
  for (const name of [attacker, control]) {
    const created = await page.request.post('/ui/api/v1/ui/admin/users', {
      headers,
      data: { name, password: `${name}-Passw0rd!`, email: `${name}@example.com` },
    })
    expect(created.status()).toBe(201)
  }
  const granted = await page.request.post('/ui/api/v1/ui/admin/permissions', {
    headers,
    data: {
      name: `deploy-${suffix}`,
      repositories: {
        resources: { names: [repo], include: [], exclude: [] },
        grants: [{ kind: 'user', name: attacker, actions: ['read', 'deploy'] }],
      },
    },
  })
  expect(granted.status()).toBe(201)

  // The attacker deploys with their own credentials.
  const mallory = await requests.newContext({
    baseURL,
    httpCredentials: { username: attacker, password: `${attacker}-Passw0rd!`, send: 'always' },
  })
  for (const [name, file] of Object.entries(attackFiles(repo, attacker))) {
    const put = await mallory.put(`/artifactory/${repo}/${name}`, { headers: { 'content-type': file.type }, data: file.body })
    expect(put.status(), name).toBe(201)
  }
  await mallory.dispose()

  // The control: the same script, run by the console's own page, does promote (so the checks below
  // would see it if any file ran it). In a tab of its own, closed after.
  const consoleTab = await page.context().newPage()
  await consoleTab.goto('/ui/packages')
  await consoleTab.evaluate(promote(control))
  await expect.poll(() => isAdmin(page.request, control)).toBe(true)
  await consoleTab.close()

  // The admin opens each file in a new tab, as a link in a mail or a chat would open it.
  for (const name of Object.keys(attackFiles(repo, attacker))) {
    const tab = await page.context().newPage()
    await tab.goto(`/artifactory/${repo}/${name}`).catch(() => undefined) // an attachment "navigates" to a download
    await tab.waitForTimeout(200)
    expect(await tab.title(), name).not.toBe('PWNED')
    await tab.close()
  }
  // An inline type shows as text: the markup in it is not parsed.
  await page.goto(`/artifactory/${repo}/notes.txt`)
  await expect(page.locator('body')).toContainText('<script>')

  // Markup that got into the console itself still cannot load a repository's script, by any path
  // that sends it: the client path, or the console's own download call under /ui/.
  await page.goto('/ui/packages')
  for (const src of [`/artifactory/${repo}/evil.js`, `/ui/api/v1/download?repoKey=${repo}&path=evil.js`]) {
    const blocked = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true })
          const s = document.createElement('script')
          s.src = url
          s.onload = () => resolve('loaded')
          document.body.append(s)
        }),
      src,
    )
    expect(blocked, src).toMatch(/^script-src/)
  }
  await page.waitForTimeout(300)
  expect(await isAdmin(page.request, attacker)).toBe(false)
  expect(await page.title()).not.toBe('PWNED')
})

test('with a download origin, View shows a file inline there, its script held away from the console', async ({ browser }) => {
  test.setTimeout(60_000)
  // The same server under a second host name: localhost, while the console is at 127.0.0.1.
  const server = await startOwnServer('download-origin', (port) => ({ TROVE_DOWNLOAD_BASE_URL: `http://localhost:${port}` }))
  try {
    const page = await (await browser.newContext()).newPage()
    await signInAt(page, server.url)
    const headers = { 'x-csrf-token': await csrfOf(page) }
    expect(
      (
        await page.request.put(`${server.url}/api/repositories/reports`, {
          headers,
          data: { rclass: 'local', packageType: 'generic' },
        })
      ).status(),
    ).toBe(201)
    // Anonymous readers may read this one, so the second host needs no sign-in of its own.
    expect(
      (
        await page.request.put(`${server.url}/ui/api/v1/ui/admin/security/anonymous-access`, { headers, data: { enabled: true } })
      ).status(),
    ).toBe(200)
    const granted = await page.request.post(`${server.url}/ui/api/v1/ui/admin/permissions`, {
      headers,
      data: {
        name: 'anyone-reads-reports',
        repositories: { resources: { names: ['reports'] }, grants: [{ kind: 'anonymous', actions: ['read'] }] },
      },
    })
    expect(granted.status()).toBe(201)
    const report =
      '<html><body><p id="out">static</p><script>var o=document.getElementById("out");' +
      'try{o.textContent="script ran; origin "+window.origin+"; cookies "+(document.cookie===""?"none":"some")}catch(e){o.textContent="script ran; no cookies: "+e.name}</script></body></html>'
    expect(
      (await page.request.put(`${server.url}/artifactory/reports/coverage/index.html`, { headers, data: report })).status(),
    ).toBe(201)

    await page.goto(`${server.url}/ui/artifacts/browse/tree/General/reports/coverage/index.html`)
    const view = page.getByRole('link', { name: 'View', exact: true })
    await expect(view).toHaveAttribute('href', /^http:\/\/localhost:\d+\/artifactory\/reports\/coverage\/index\.html$/)
    const [shown] = await Promise.all([page.context().waitForEvent('page'), view.click()])
    await shown.waitForLoadState()
    // Inline, its script ran, in an opaque origin that reaches no cookie of anybody's.
    await expect(shown.locator('#out')).toContainText('script ran')
    await expect(shown.locator('#out')).not.toContainText('cookies some')
    expect(await shown.evaluate(() => window.origin)).toBe('null')
    // That host serves files only: not the console.
    const consoleThere = await shown.request.get(shown.url().replace(/\/artifactory\/.*/, '/ui/'))
    expect(consoleThere.status()).toBe(404)
  } finally {
    server.stop()
  }
})
