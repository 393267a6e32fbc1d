import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'

const GIT = '/usr/bin/git'
const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix))
const gitEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Trove Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Trove Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
}
const git = (args: string[], cwd?: string) => execFileSync(GIT, args, { cwd, env: gitEnv, encoding: 'utf8' }).trim()

export interface GitServer {
  /** The URL a repository is cloned from. */
  cloneUrl(fullName: string): string
  /** Makes a bare repository with one commit holding `files`; answers that commit. */
  addRepository(fullName: string, files: Record<string, string>): string
  /** Pushes a commit writing `files` over a repository's main branch; answers that commit. */
  commit(fullName: string, files: Record<string, string>): string
  /** Takes a repository away (a clone of it then fails). */
  remove(fullName: string): void
  /** Authorization headers seen, in order. */
  seen: string[]
  close(): Promise<void>
}

/**
 * A real git server over the "dumb" HTTP protocol: bare repositories made by the real git client,
 * prepared with `git update-server-info`, served as static files to requests carrying exactly the
 * Authorization header the vendor's git service expects.
 */
export async function startGitServer(expectedAuthorization: string): Promise<GitServer> {
  const root = tempDir('trove-git-server-')
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? ''
    seen.push(auth)
    if (auth !== expectedAuthorization) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('Unauthorized')
      return
    }
    const url = new URL(req.url ?? '/', 'http://x')
    const file = path.join(root, decodeURIComponent(url.pathname))
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('Not found')
      return
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' })
    fs.createReadStream(file).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    seen,
    cloneUrl: (fullName) => `${base}/${fullName}.git`,
    addRepository(fullName, files) {
      const work = tempDir('trove-git-work-')
      git(['init', '--quiet', '--initial-branch=main', work])
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(work, name), text)
      git(['add', '.'], work)
      git(['commit', '--quiet', '-m', `first commit of ${fullName}`], work)
      const head = git(['rev-parse', 'HEAD'], work)
      const bare = path.join(root, `${fullName}.git`)
      fs.mkdirSync(path.dirname(bare), { recursive: true })
      git(['clone', '--quiet', '--bare', work, bare])
      git(['update-server-info'], bare)
      fs.rmSync(work, { recursive: true, force: true })
      return head
    },
    commit(fullName, files) {
      const work = tempDir('trove-git-work-')
      const bare = path.join(root, `${fullName}.git`)
      git(['clone', '--quiet', bare, work])
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(work, name), text)
      git(['add', '.'], work)
      git(['commit', '--quiet', '-m', `change ${Object.keys(files).join(', ')}`], work)
      git(['push', '--quiet', 'origin', 'main'], work)
      git(['update-server-info'], bare)
      const head = git(['rev-parse', 'HEAD'], work)
      fs.rmSync(work, { recursive: true, force: true })
      return head
    },
    remove(fullName) {
      fs.rmSync(path.join(root, `${fullName}.git`), { recursive: true, force: true })
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      fs.rmSync(root, { recursive: true, force: true })
    },
  }
}
