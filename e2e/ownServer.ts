import { type ChildProcess, spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { expect, type Page } from '@playwright/test'
import { ADMIN_PASSWORD } from './playwright.config'

/**
 * A server of a journey's own, for journeys that need modules the shared servers do not run
 * (the security scanner): the built server on a free port, on a data dir under the run's.
 */
export interface OwnServer {
  url: string
  process: ChildProcess
  stop(): void
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Starts a server of the journey's own; `env` may depend on the port it gets (a URL naming it). */
export async function startOwnServer(
  name: string,
  env: Record<string, string> | ((port: number) => Record<string, string>),
): Promise<OwnServer> {
  const port = await freePort()
  const child = spawn(process.execPath, ['../apps/server/dist/src/main.js'], {
    env: {
      ...process.env,
      TROVE_PORT: String(port),
      TROVE_HOST: '127.0.0.1',
      TROVE_DATA_DIR: path.join(process.env.TROVE_E2E_DATA_DIR ?? '', name),
      TROVE_LOG_STDOUT: 'false',
      TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      TROVE_MODULES: 'repository',
      ...(typeof env === 'function' ? env(port) : env),
    },
    stdio: 'ignore',
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 150; i++) {
    const up = await fetch(`${url}/api/system/ping`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { url, process: child, stop: () => child.kill() }
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill()
  throw new Error('the server did not start')
}

/** Signs in as the admin on the login screen of the server at `url`. */
export async function signInAt(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/ui/login`)
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/login/)
}

/** A screenshot of the screen in the light and the dark theme, when TROVE_E2E_SCREENSHOTS names a folder. */
export async function shoot(page: Page, name: string): Promise<void> {
  const shots = process.env.TROVE_E2E_SCREENSHOTS
  if (!shots) return
  for (const scheme of ['light', 'dark']) {
    await page.evaluate((s) => document.documentElement.setAttribute('data-mantine-color-scheme', s), scheme)
    await page.screenshot({ path: path.join(shots, `${name}-${scheme}.png`), fullPage: true })
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'))
}
