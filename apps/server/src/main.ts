import cluster from 'node:cluster'
import type { buildApp } from './app.js'
import { type Config, ConfigError, loadConfig } from './core/config.js'
import { type EarlyStop, hearStopWhileStarting, runPrimary } from './core/workers.js'

/** Reads the config, builds the app, listens, and shuts down cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  // A worker hears a stop from its first moment (the app's modules load after this, and take a while).
  const early = cluster.isWorker ? hearStopWhileStarting() : undefined
  let config: Config
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(2)
    }
    throw error
  }

  // A maintenance command (doctor, backup, restore) runs and exits; without one, the server runs.
  if (process.argv.length > 2) {
    const { runCommand } = await import('./commands.js')
    const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) }
    process.exitCode = await runCommand(process.argv.slice(2), config, io)
    return
  }

  if (config.workers.count > 1 && cluster.isPrimary) {
    runPrimary(config.workers.count, config.shutdownTimeoutMs)
    return
  }

  const started = performance.now()
  const app = await (await import('./app.js')).buildApp(config)
  await app.fastify.listen({ port: config.port, host: config.host })
  const address = app.fastify.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = config.baseUrl ?? `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`
  app.logger.info(
    { url, database: app.db.dialect, dataDir: config.dataDir, startMs: Math.round(performance.now() - started) },
    'server started',
  )

  app.link?.ready()
  // Worker 1 speaks for the node; the others only log.
  if (config.workers.index > 1) return installStop(app, config, early)

  const lines = [`Trove is running: ${url}/ui/`]
  if (config.workers.count > 1) lines.push(`(${config.workers.count} worker processes share the port)`)
  if (app.firstAdmin?.generatedPassword) {
    lines.push(
      `First start: sign in as "${app.firstAdmin.name}" with the password ${app.firstAdmin.generatedPassword}`,
      `(also written to ${app.firstAdmin.passwordFile}; change it after signing in)`,
    )
  } else if (app.firstAdmin) {
    lines.push(`First start: sign in as "${app.firstAdmin.name}" with the password from TROVE_ADMIN_PASSWORD`)
  }
  // The stop handlers first: a SIGTERM sent as soon as the line is read (a supervisor, a test) must
  // find them, not the default action of a signal nobody listens to, which kills at once.
  installStop(app, config, early)
  process.stdout.write(`\n${lines.join('\n')}\n\n`)
}

function installStop(app: Awaited<ReturnType<typeof buildApp>>, config: Config, early: EarlyStop | undefined): void {
  if (early) {
    process.off('SIGTERM', early.listener)
    process.off('SIGINT', early.listener)
  }
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.logger.info({ signal }, 'shutting down: finishing in-flight requests')
    const timer = setTimeout(() => {
      app.logger.error('shutdown took too long; exiting')
      process.exit(1)
    }, config.shutdownTimeoutMs)
    timer.unref()
    await app.close()
    process.exit(0)
  }
  // A worker hears every signal (the primary sends it again until the worker has gone, and stops
  // them itself when asked twice); a process of its own ends at once on a second one.
  const hear = early ? process.on.bind(process) : process.once.bind(process)
  hear('SIGTERM', () => void stop('SIGTERM'))
  hear('SIGINT', () => void stop('SIGINT'))
  if (early?.signal) void stop(early.signal)
}

main().catch((error: unknown) => {
  // A setting that the start found wrong (a bucket that refuses, say) names it, as a config error does.
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(2)
  }
  process.stderr.write(`Trove failed to start: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
