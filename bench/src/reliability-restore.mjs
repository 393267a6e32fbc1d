// npm run bench -- restore: backup, restore and doctor on the built server's commands, over a
// store of TROVE_BENCH_RESTORE_MB megabytes (default 64) of 1 MiB blobs uploaded through the
// generic repository API. Restore hashes every blob while copying it; the doctor hashes them again.
import { execFile } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { signInAdmin, startServer } from './server.mjs'

const main = new URL('../../apps/server/dist/src/main.js', import.meta.url).pathname
const PASSWORD = 'bench-password-1'
const BLOB = 1024 * 1024

function command(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    execFile(
      process.execPath,
      [main, ...args],
      { env: { PATH: process.env.PATH, TROVE_LOG_STDOUT: 'false', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && !(args[0] === 'doctor' && error.code === 1)) reject(new Error(`${args[0]}: ${stderr || error.message}`))
        else resolve({ ms: performance.now() - started, stdout, code: error ? error.code : 0 })
      },
    )
  })
}

export async function benchRestore(row) {
  const mb = Number(process.env.TROVE_BENCH_RESTORE_MB ?? 64)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-restore-'))
  const dataDir = path.join(work, 'data')
  try {
    const server = await startServer({ TROVE_DATA_DIR: dataDir, TROVE_ADMIN_PASSWORD: PASSWORD })
    try {
      const headers = await signInAdmin(server.url, PASSWORD)
      const repo = await fetch(`${server.url}/api/repositories/files`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
      })
      if (repo.status !== 201) throw new Error(`create repository: ${repo.status}`)
      for (let i = 0; i < mb; i++) {
        const res = await fetch(`${server.url}/artifactory/files/bench/${i}.bin`, {
          method: 'PUT',
          headers: { cookie: headers.cookie, 'x-csrf-token': headers['x-csrf-token'] },
          body: crypto.randomBytes(BLOB),
        })
        if (res.status !== 201) throw new Error(`upload: ${res.status}`)
      }
    } finally {
      await server.stop()
    }

    const backupDir = path.join(work, 'backup')
    const restoredDir = path.join(work, 'restored')
    const backup = await command(['backup', backupDir], { TROVE_DATA_DIR: dataDir })
    const restore = await command(['restore', backupDir], { TROVE_DATA_DIR: restoredDir })
    const doctor = await command(['doctor', '--json'], { TROVE_DATA_DIR: restoredDir })
    const report = JSON.parse(doctor.stdout)
    if (!report.ok || report.blobsChecked !== mb) throw new Error(`doctor after restore: ${doctor.stdout.slice(0, 500)}`)
    const rate = (ms) => Math.round((mb / ms) * 1000)
    const note = `${mb} blobs of 1 MiB (TROVE_BENCH_RESTORE_MB)`
    row('backup: blobs copied and verified', rate(backup.ms), 'MB/s', '-', null, note)
    row(
      'restore: blobs restored and verified',
      rate(restore.ms),
      'MB/s',
      '-',
      null,
      `${Math.round((mb / restore.ms) * 1000)} blobs/s`,
    )
    row('doctor: blobs hashed against the database', rate(doctor.ms), 'MB/s', '-', null, 'after the restore: clean')
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}
