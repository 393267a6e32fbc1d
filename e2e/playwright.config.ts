import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './chromium.mjs'

// One real server for the run, on a fresh data dir. Workers load this file too and inherit the
// environment, so they share the same server and directory.
process.env.TROVE_E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'trove-e2e-'))
// Below the kernel's ephemeral range (32768 and up): a port in it may be taken by any connection's
// own end at the moment the servers start.
process.env.TROVE_E2E_PORT ??= String(20000 + Math.floor(Math.random() * 12000))
export const ADMIN_PASSWORD = 'e2e-admin-password'
const baseURL = `http://127.0.0.1:${process.env.TROVE_E2E_PORT}`
/** A second server for journeys that change instance-wide security (MFA for everyone, …). */
export const SECURITY_URL = `http://127.0.0.1:${Number(process.env.TROVE_E2E_PORT) + 1}`
/** A third for journeys that change the admin's own account (password reset, …). */
export const ACCOUNTS_URL = `http://127.0.0.1:${Number(process.env.TROVE_E2E_PORT) + 2}`
/** A fourth for single sign-on journeys (providers on the login screen, auto-redirect). */
export const SSO_URL = `http://127.0.0.1:${Number(process.env.TROVE_E2E_PORT) + 3}`
/** A fourth for journeys that change the instance model (licence, read-only mode, quota, flags). */
export const INSTANCE_URL = `http://127.0.0.1:${Number(process.env.TROVE_E2E_PORT) + 4}`
/** A sixth, brand new, for the first-run journey (onboarding); the others start past it. */
export const ONBOARDING_URL = `http://127.0.0.1:${Number(process.env.TROVE_E2E_PORT) + 5}`
/** The servers whose admin has closed the onboarding wizard before the journeys run. */
export const ONBOARDED_URLS = [baseURL, SECURITY_URL, ACCOUNTS_URL, SSO_URL, INSTANCE_URL]

export default defineConfig({
  testDir: 'tests',
  globalSetup: './globalSetup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['dot'], ['json']] : [['list']],
  use: {
    baseURL,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  webServer: [...ONBOARDED_URLS, ONBOARDING_URL].map((url, i) => ({
    command: 'node ../apps/server/dist/src/main.js',
    url: `${url}/api/system/ping`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      TROVE_PORT: new URL(url).port,
      TROVE_HOST: '127.0.0.1',
      TROVE_DATA_DIR: `${process.env.TROVE_E2E_DATA_DIR}/server-${i}`,
      TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      TROVE_LOG_STDOUT: 'false',
      // The first-run server is what a newcomer starts: every module. The journeys' own servers run
      // the repository alone; the scanner's and release bundles' journeys start servers with theirs.
      ...(url === ONBOARDING_URL ? {} : { TROVE_MODULES: 'repository' }),
    },
  })),
})
