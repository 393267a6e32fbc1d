import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { checkTarget } from './safeAddress.js'

const run = promisify(execFile)
const CLONE_TIMEOUT_MS = 10 * 60_000

/** Where a selected repository's clone lives: <data dir>/git/<integration key>/<owner>__<name>. */
export function clonePath(dataDir: string, integrationKey: string, fullName: string): string {
  const safe = fullName.replace(/[^A-Za-z0-9._-]+/g, '__').replace(/^\.+/, '_')
  return path.join(dataDir, 'git', integrationKey, safe)
}

/**
 * Clones over HTTP(S) with the real git client. The credentials travel as an extra header given
 * through GIT_CONFIG_* variables (never on the command line or in the URL); git connects to the
 * address that was checked (http.curloptResolve), follows no redirects, and speaks no protocol but
 * http(s). The clone is made beside its place and renamed over it, so a failed clone leaves the
 * previous one whole. Answers the HEAD commit of the clone.
 */
export async function cloneRepository(git: string, cloneUrl: string, header: string, target: string): Promise<string> {
  const checked = await checkTarget(cloneUrl)
  const port = checked.url.port || (checked.url.protocol === 'https:' ? '443' : '80')
  const address = checked.family === 6 ? `[${checked.address}]` : checked.address
  const config: [string, string][] = [
    ['http.extraHeader', header],
    ['http.followRedirects', 'false'],
    ['http.curloptResolve', `${checked.url.hostname}:${port}:${address}`],
    ['protocol.allow', 'never'],
    ['protocol.http.allow', 'always'],
    ['protocol.https.allow', 'always'],
    ['credential.helper', ''],
  ]
  const env: NodeJS.ProcessEnv = {
    HOME: path.dirname(target),
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_COUNT: String(config.length),
    ...Object.fromEntries(
      config.flatMap(([k, v], i) => [
        [`GIT_CONFIG_KEY_${i}`, k],
        [`GIT_CONFIG_VALUE_${i}`, v],
      ]),
    ),
  }
  await fs.mkdir(path.dirname(target), { recursive: true })
  const temp = `${target}.tmp-${crypto.randomBytes(4).toString('hex')}`
  try {
    await run(git, ['clone', '--quiet', '--', cloneUrl, temp], { env, timeout: CLONE_TIMEOUT_MS, maxBuffer: 1024 * 1024 })
    const { stdout } = await run(git, ['-C', temp, 'rev-parse', '--verify', 'HEAD'], { env, timeout: 30_000 })
    const head = stdout.trim()
    if (!/^[0-9a-f]{40,64}$/.test(head)) throw new Error('the clone has no HEAD commit')
    await fs.rm(target, { recursive: true, force: true })
    await fs.rename(temp, target)
    return head
  } catch (error) {
    await fs.rm(temp, { recursive: true, force: true })
    const stderr = (error as { stderr?: string }).stderr?.trim()
    throw new Error(stderr ? stderr.split('\n').slice(-1)[0] : error instanceof Error ? error.message : String(error))
  }
}
