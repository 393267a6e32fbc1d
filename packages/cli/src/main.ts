#!/usr/bin/env node
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import type { CliTokens } from '@trove/contracts/cli'
import { CLI_CODE_LENGTH } from '@trove/contracts/cli'
import { readConfig, writeConfig } from './config.js'

const CLIENT_NAME = 'trove-cli'
const POLL_MS = 1000
const WAIT_MS = 5 * 60_000

const usage = `Usage:
  trove login <url> [--no-browser]   sign in through the browser; the tokens are kept in ~/.trove
  trove whoami                       who the kept token signs in as`

async function errorText(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { errors?: { message?: string }[] }
    return body.errors?.[0]?.message ?? `HTTP ${response.status}`
  } catch {
    return `HTTP ${response.status}`
  }
}

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true })
    child.on('error', () => {})
    child.unref()
  } catch {
    // no browser here: the address is printed anyway
  }
}

async function login(server: string, browser: boolean): Promise<void> {
  const base = server.replace(/\/+$/, '')
  const session = crypto.randomUUID()
  const opened = await fetch(`${base}/access/api/v2/authentication/jfrog_client_login/request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session }),
  })
  if (opened.status !== 201) throw new Error(`the server refused the sign-in: ${await errorText(opened)}`)

  const url = `${base}/ui/login/cli-registration?jfClientSession=${session}&jfClientName=${CLIENT_NAME}&jfClientCode=1`
  const code = session.slice(-CLI_CODE_LENGTH)
  process.stdout.write(
    `Open this address in a browser and sign in:\n  ${url}\nThe browser will show the code ${code}: approve only if it matches.\n`,
  )
  if (browser) openBrowser(url)

  const deadline = Date.now() + WAIT_MS
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const res = await fetch(`${base}/access/api/v2/authentication/jfrog_client_login/token/${session}`)
    if (res.status === 400) continue
    if (!res.ok) throw new Error(await errorText(res))
    const tokens = (await res.json()) as CliTokens
    const config = readConfig()
    config.servers[base] = {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: Date.now() + tokens.expires_in * 1000,
    }
    config.current = base
    writeConfig(config)
    process.stdout.write(`Signed in to ${base}\n`)
    return
  }
  throw new Error('nobody approved the sign-in within 5 minutes')
}

async function whoami(): Promise<void> {
  const config = readConfig()
  const base = config.current
  const credentials = base ? config.servers[base] : undefined
  if (!base || !credentials) throw new Error('not signed in: run "trove login <url>"')
  let res = await fetch(`${base}/ui/api/v1/ui/auth/current`, { headers: { authorization: `Bearer ${credentials.accessToken}` } })
  if (res.status === 401) {
    const refreshed = await fetch(`${base}/access/api/v1/tokens/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: credentials.refreshToken }),
    })
    if (!refreshed.ok) throw new Error('the kept sign-in has ended: run "trove login <url>" again')
    const tokens = (await refreshed.json()) as CliTokens
    config.servers[base] = {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: Date.now() + tokens.expires_in * 1000,
    }
    writeConfig(config)
    res = await fetch(`${base}/ui/api/v1/ui/auth/current`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
  }
  if (!res.ok) throw new Error(await errorText(res))
  const user = (await res.json()) as { name: string; admin: boolean }
  process.stdout.write(`${user.name}${user.admin ? ' (admin)' : ''} at ${base}\n`)
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === 'login' && rest[0]) return login(rest[0], !rest.includes('--no-browser'))
  if (command === 'whoami') return whoami()
  process.stderr.write(`${usage}\n`)
  process.exitCode = 2
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`trove: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
})
