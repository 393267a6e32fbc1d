import { type ChildProcess, spawn } from 'node:child_process'
import http from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'

const S3RVER = path.join(path.dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin', 's3rver.js')

/** An S3-compatible server (s3rver, a process of its own) on a loopback port, its objects in `dir`. */
export async function startS3(dir: string, port?: number): Promise<{ server: ChildProcess; endpoint: string; port: number }> {
  const chosen =
    port ??
    (await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port
        probe.close(() => resolve(p))
      })
    }))
  const server = spawn(
    process.execPath,
    [S3RVER, '-d', dir, '-a', '127.0.0.1', '-p', String(chosen), '--silent', '--configure-bucket', 'trove'],
    {
      stdio: 'ignore',
    },
  )
  const endpoint = `http://127.0.0.1:${chosen}`
  for (let i = 0; ; i++) {
    try {
      await fetch(`${endpoint}/`)
      break
    } catch (error) {
      if (i > 200) throw error
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  return { server, endpoint, port: chosen }
}

export const stopS3 = (server: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve()
    server.once('exit', () => resolve())
    server.kill('SIGKILL')
  })
