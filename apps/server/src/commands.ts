import fs from 'node:fs'
import path from 'node:path'
import type { Config } from './core/config.js'
import { openDb } from './core/db.js'
import { S3Objects } from './core/s3Objects.js'
import { BackupError, backup, checkIntegrity, formatIntegrityReport, restore } from './services/operations/index.js'

/** Maintenance commands of the server (`node main.js <command>`), reading the same TROVE_* config. */
export const USAGE = `Usage: node apps/server/dist/src/main.js [command]
  (no command)              run the server
  doctor [--json] [--sizes-only]
                            verify every blob against the database; exit 1 when problems are found
  backup <dir> [--link]     write a consistent snapshot of the database, the blobs and the data files to <dir>
  restore <dir> [--link]    restore a backup onto a new TROVE_DATA_DIR (and a new, empty TROVE_DATABASE_URL)
`

type Out = { out: (text: string) => void; err: (text: string) => void }

/** Runs a command; the answer is the process's exit code (2: bad usage). */
export async function runCommand(args: string[], config: Config, io: Out): Promise<number> {
  const [command, ...rest] = args
  const flags = new Set(rest.filter((a) => a.startsWith('--')))
  const positional = rest.filter((a) => !a.startsWith('--'))
  const known: Record<string, string[]> = { doctor: ['--json', '--sizes-only'], backup: ['--link'], restore: ['--link'] }
  const allowed = command ? known[command] : undefined
  if (!allowed || [...flags].some((f) => !allowed.includes(f)) || positional.length !== (command === 'doctor' ? 0 : 1)) {
    io.err(command === 'help' || command === '--help' ? USAGE : `Unknown command or arguments: ${args.join(' ')}\n${USAGE}`)
    return command === 'help' || command === '--help' ? 0 : 2
  }
  try {
    if (command === 'doctor') return await doctor(config, io, flags)
    // backup and restore: the steps go to stderr, the outcome to stdout.
    const dir = path.resolve(positional[0] as string)
    const log = (line: string) => io.err(`${line}\n`)
    if (command === 'backup') {
      const m = await backup(config, dir, { link: flags.has('--link'), log })
      io.out(
        `Backup written to ${dir}: the ${m.database} database, ${m.blobs} blobs (${m.bytes} bytes), ${m.dataFiles.length} data files.\n`,
      )
      return 0
    }
    const m = await restore(config, dir, { link: flags.has('--link'), log })
    io.out(
      `Restored ${m.blobs} blobs (${m.bytes} bytes) and the ${m.database} database of ${m.createdAt} into ${config.dataDir}. Start the server on it; the doctor command checks it.\n`,
    )
    return 0
  } catch (error) {
    io.err(
      `${command} failed: ${error instanceof BackupError || !(error instanceof Error) ? String(error instanceof Error ? error.message : error) : (error.stack ?? error.message)}\n`,
    )
    return 1
  }
}

async function doctor(config: Config, io: Out, flags: Set<string>): Promise<number> {
  if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, 'trove.db'))) {
    io.err(`No database at ${path.join(config.dataDir, 'trove.db')}: set TROVE_DATA_DIR (or TROVE_DATABASE_URL)\n`)
    return 2
  }
  const db = await openDb(config)
  const s3 = config.repositories.s3 ? new S3Objects(config.repositories.s3) : undefined
  try {
    const report = await checkIntegrity({ db: db.kysely, dataDir: config.dataDir, s3 }, { sizesOnly: flags.has('--sizes-only') })
    io.out(flags.has('--json') ? `${JSON.stringify(report, null, 2)}\n` : formatIntegrityReport(report))
    return report.ok ? 0 : 1
  } finally {
    s3?.destroy()
    await db.close()
  }
}
