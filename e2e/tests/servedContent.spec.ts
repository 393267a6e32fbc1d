import crypto from 'node:crypto'
import { type APIRequestContext, expect, type Page, request as requests, test } from '@playwright/test'
import { signInAsAdmin } from './signIn'

/**
 * Finding 1 of the security probe, in a real browser: a user who may only deploy uploads files
 * that, opened by an admin, would call the console's API with the admin's session and make the
 * uploader an admin. Whatever the file's type, nothing of it may act in the console's origin.
 */
const csrfOf = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'trove_csrf')?.value ?? ''

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
  // would see it if any file ran it).
  await page.goto('/ui/packages')
  await page.evaluate(promote(control))
  await expect.poll(() => isAdmin(page.request, control)).toBe(true)

  // The admin opens each file, as a link in a mail or a chat would open it.
  for (const name of Object.keys(attackFiles(repo, attacker))) {
    await page.goto(`/artifactory/${repo}/${name}`).catch(() => undefined) // an attachment "navigates" to a download
    await page.waitForTimeout(200)
    expect(await page.title(), name).not.toBe('PWNED')
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
