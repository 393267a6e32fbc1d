import { type ChildProcess, spawn } from 'node:child_process'
import http from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'

const S3RVER = path.join(path.dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin', 's3rver.js')

/** An S3-compatible server (s3rver, a process of its own) on a loopback port, its objects in `dir`, with a bucket `trove`. */
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

/** The settings that put a Trove's blobs in the test server's bucket `trove`, under `prefix`. */
export const s3Env = (endpoint: string, prefix: string, extra: Record<string, string> = {}) => ({
  TROVE_BLOB_STORE: `s3://trove/${prefix}`,
  TROVE_S3_ENDPOINT: endpoint,
  TROVE_S3_ACCESS_KEY_ID: 'S3RVER',
  TROVE_S3_SECRET_ACCESS_KEY: 'S3RVER',
  TROVE_S3_FORCE_PATH_STYLE: 'true',
  ...extra,
})

/** A client of the test server, as an operator's tools would see the bucket. */
export const s3Client = (endpoint: string) => {
  // The SDK's warning that its releases after January 2027 need Node.js 22 (see core/s3Objects.ts).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  return new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })
}

/** Every key of the bucket `trove`, sorted. */
export async function bucketKeys(endpoint: string): Promise<string[]> {
  const c = s3Client(endpoint)
  try {
    const listed = await c.send(new ListObjectsV2Command({ Bucket: 'trove' }))
    return (listed.Contents ?? []).map((o) => o.Key as string).sort()
  } finally {
    c.destroy()
  }
}
