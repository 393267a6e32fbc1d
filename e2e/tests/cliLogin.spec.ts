import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD } from '../playwright.config'

const cli = path.resolve(import.meta.dirname, '../../packages/cli/dist/main.js')

function runCli(args: string[], configDir: string) {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, TROVE_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (d) => {
    out += d
  })
  child.stderr.on('data', (d) => {
    out += d
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { exited, out: () => out }
}

test('trove login: the browser approves the code the terminal shows, and the CLI is signed in', async ({ page, baseURL }) => {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-cli-'))
  const login = runCli(['login', baseURL ?? '', '--no-browser'], configDir)
  await expect.poll(() => login.out(), { timeout: 10_000 }).toContain('/ui/login/cli-registration?jfClientSession=')
  const url = /(http:\/\/\S+\/ui\/login\/cli-registration\?\S+)/.exec(login.out())?.[1] ?? ''
  const code = /shows? the code (\S+):/.exec(login.out())?.[1] ?? ''
  expect(code).toHaveLength(4)

  // The command-line sign-in screen names the waiting client and the code's ending.
  await page.goto(url)
  await expect(page).toHaveTitle('Command-line login - Trove')
  await expect(page.getByRole('status').filter({ hasText: 'trove-cli is waiting' })).toContainText(code)
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/ui\/plugs\/extension\/cli\/verify$/)
  await expect(page).toHaveTitle('Command-line login - Trove')
  await expect(page.getByTestId('cli-code')).toHaveText(code)
  await page.getByRole('button', { name: 'Approve' }).click()
  await expect(page.getByRole('status')).toContainText('trove-cli is signed in as admin')

  expect(await login.exited).toBe(0)
  expect(login.out()).toContain(`Signed in to ${baseURL}`)
  const config = path.join(configDir, 'config.json')
  expect(fs.statSync(config).mode & 0o777).toBe(0o600)

  const whoami = runCli(['whoami'], configDir)
  expect(await whoami.exited).toBe(0)
  expect(whoami.out()).toBe(`admin (admin) at ${baseURL}\n`)

  // The CLI routes without a waiting client go to login with logout (shell §4.2).
  await page.goto('/ui/plugs/extension/cli')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  await page.goto('/ui/login/cli-registration')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  fs.rmSync(configDir, { recursive: true, force: true })
})
