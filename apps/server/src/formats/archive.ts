import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import tar from 'tar-stream'
import { HttpError } from '../core/errors.js'

export interface TarReadOptions {
  /** Entries whose content is wanted (by their path in the archive). */
  want: (name: string) => boolean
  /** The most the whole archive may expand to; beyond it, it is refused as a decompression bomb. */
  maxExpandedBytes: number
  /** The most one wanted entry may hold (it is kept in memory). */
  maxEntryBytes?: number
}

const refuse = (message: string) => new HttpError(400, `Refused archive: ${message}`)

/** Refuses entry names that climb out of the archive's tree or are absolute. */
export function checkEntryName(name: string): void {
  if (name.includes('\0')) throw refuse(`entry ${JSON.stringify(name)} has a NUL byte`)
  if (name.startsWith('/') || /^[A-Za-z]:[\\/]/.test(name) || name.startsWith('\\')) {
    throw refuse(`entry ${JSON.stringify(name)} is an absolute path`)
  }
  if (name.split(/[\\/]/).includes('..')) throw refuse(`entry ${JSON.stringify(name)} climbs out of the tree with ..`)
}

/** Refuses links whose target resolves outside the archive's tree. */
export function checkLinkTarget(name: string, target: string): void {
  if (target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target)) {
    throw refuse(`link ${JSON.stringify(name)} points to the absolute path ${JSON.stringify(target)}`)
  }
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(name), target))
  if (resolved === '..' || resolved.startsWith('../')) {
    throw refuse(`link ${JSON.stringify(name)} points out of the tree (${JSON.stringify(target)})`)
  }
}

/**
 * Reads a .tar.gz (or plain .tar) safely: every entry's name and link target is checked, the
 * expanded size is counted over the whole archive, and only wanted entries are kept in memory.
 */
export async function readTarGz(data: Buffer, options: TarReadOptions): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>()
  const extract = tar.extract()
  const maxEntry = options.maxEntryBytes ?? 16 * 1024 * 1024
  let expanded = 0
  extract.on('entry', (header, stream, next) => {
    const name = header.name
    // Failures are reported once, through the pipeline; the entry stream's own echo is dropped.
    stream.on('error', () => {})
    try {
      checkEntryName(name)
      if (header.type === 'symlink' || header.type === 'link') checkLinkTarget(name, header.linkname ?? '')
    } catch (error) {
      extract.destroy(error as Error)
      return
    }
    const keep = header.type === 'file' && options.want(name)
    const chunks: Buffer[] = []
    let size = 0
    stream.on('data', (data: unknown) => {
      const chunk = data as Buffer
      expanded += chunk.length
      size += chunk.length
      if (expanded > options.maxExpandedBytes) {
        extract.destroy(refuse(`it expands beyond ${options.maxExpandedBytes} bytes`))
        return
      }
      if (keep) {
        if (size > maxEntry) extract.destroy(refuse(`entry ${name} is larger than ${maxEntry} bytes`))
        else chunks.push(chunk)
      }
    })
    stream.on('end', () => {
      if (keep) found.set(name, Buffer.concat(chunks))
      next()
    })
  })
  const gzipped = data.length > 2 && data[0] === 0x1f && data[1] === 0x8b
  try {
    if (gzipped) await pipeline(Readable.from([data]), zlib.createGunzip(), extract)
    else await pipeline(Readable.from([data]), extract)
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw refuse(`it is not a readable ${gzipped ? 'gzip ' : ''}tar archive (${(error as Error).message})`)
  }
  return found
}
