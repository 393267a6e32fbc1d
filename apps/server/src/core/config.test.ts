import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, webDirFrom } from './config.js'

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({})
    expect(config.port).toBe(8080)
    expect(config.host).toBe('0.0.0.0')
    expect(config.dataDir).toBe(path.resolve('./data'))
    expect(config.databaseUrl).toBeUndefined()
    expect(config.adminPassword).toBeUndefined()
    expect(config.log).toMatchObject({ level: 'info', stdout: true, maxSize: 10 * 1024 * 1024 })
    // A single node is the whole product: the repository, the scanner and release bundles.
    expect(config.node.modules).toEqual(['repository', 'scanner', 'distribution'])
    // The built console, whether the server runs from its sources or from its build.
    const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
    const built = path.resolve(server, '../web/dist')
    expect(config.webDir).toBe(built)
    expect(webDirFrom(path.join(server, 'dist/src/core'))).toBe(built)
  })

  it('reads every variable', () => {
    const config = loadConfig({
      TROVE_PORT: '9000',
      TROVE_HOST: '127.0.0.1',
      TROVE_DATA_DIR: '/srv/trove',
      TROVE_DATABASE_URL: 'postgres://trove:secret@db:5432/trove',
      TROVE_BASE_URL: 'https://trove.example.com/',
      TROVE_ADMIN_PASSWORD: 'a-long-password',
      TROVE_LOG_MAX_SIZE: '512k',
    })
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/srv/trove',
      databaseUrl: 'postgres://trove:secret@db:5432/trove',
      baseUrl: 'https://trove.example.com',
      adminPassword: 'a-long-password',
    })
    expect(config.log.maxSize).toBe(512 * 1024)
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ TROVE_DATABASE_URL: '' }).databaseUrl).toBeUndefined()
  })

  it('names every bad variable and what was expected', () => {
    let error: unknown
    try {
      loadConfig({ TROVE_PORT: 'eighty', TROVE_DATABASE_URL: 'mysql://x', TROVE_ADMIN_PASSWORD: 'short' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    const message = (error as Error).message
    expect(message).toContain('TROVE_PORT="eighty": expected a whole number between 0 and 65535')
    expect(message).toContain('TROVE_DATABASE_URL="mysql://x": expected a postgres:// URL, or unset for SQLite')
    expect(message).toContain('TROVE_ADMIN_PASSWORD')
  })

  it('keeps the download origin on a host of its own', () => {
    expect(() =>
      loadConfig({ TROVE_BASE_URL: 'https://trove.example.com', TROVE_DOWNLOAD_BASE_URL: 'https://trove.example.com/files' }),
    ).toThrow(/TROVE_DOWNLOAD_BASE_URL: must be another host than TROVE_BASE_URL/)
    expect(
      loadConfig({ TROVE_BASE_URL: 'https://trove.example.com', TROVE_DOWNLOAD_BASE_URL: 'https://files.trove.example.com/' })
        .downloadBaseUrl,
    ).toBe('https://files.trove.example.com')
  })

  it('rejects a port out of range', () => {
    expect(() => loadConfig({ TROVE_PORT: '70000' })).toThrow(/TROVE_PORT/)
  })

  it('runs one process unless told, and names each worker of several', () => {
    expect(loadConfig({}).workers).toEqual({ count: 1, index: 0 })
    expect(loadConfig({ TROVE_WORKERS: 'auto' }).workers.count).toBe(Math.min(os.availableParallelism(), 32))
    const first = loadConfig({ TROVE_WORKERS: '3', TROVE_WORKER_INDEX: '1', TROVE_NODE_ID: 'box', TROVE_DATA_DIR: '/d' })
    expect(first.workers).toEqual({ count: 3, index: 1 })
    expect(first.node.id).toBe('box')
    expect(first.log.dir).toBe(path.resolve('/d/logs'))
    const third = loadConfig({ TROVE_WORKERS: '3', TROVE_WORKER_INDEX: '3', TROVE_NODE_ID: 'box', TROVE_DATA_DIR: '/d' })
    expect(third.node.id).toBe('box-w3')
    expect(third.log.dir).toBe(path.resolve('/d/logs/box-w3'))
  })

  it('refuses a bad worker count, and one node address for several workers', () => {
    expect(() => loadConfig({ TROVE_WORKERS: '0' })).toThrow(/TROVE_WORKERS="0": expected at least 1/)
    expect(() => loadConfig({ TROVE_WORKERS: 'many' })).toThrow(
      /TROVE_WORKERS="many": expected auto or a whole number from 1 to 32/,
    )
    expect(() => loadConfig({ TROVE_WORKERS: '2', TROVE_NODE_URL: 'http://box:8080' })).toThrow(
      /TROVE_NODE_URL: one address cannot name several worker processes/,
    )
  })
})
