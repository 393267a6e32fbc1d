import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import tar from 'tar-stream'
import yauzl from 'yauzl'
import { HttpError } from '../../core/errors.js'

export interface TarReadOptions {
  /** Entries whose content is wanted (by their path in the archive). */
  want: (name: string) => boolean
  /** The most the whole archive may expand to; beyond it, it is refused as a decompression bomb. */
  maxExpandedBytes: number
  /** The most one wanted entry may hold (it is kept in memory). */
  maxEntryBytes?: number
  /** Sees every entry's name (folders and links too) after the safety checks; throws to refuse the archive (zip only). */
  entry?: (name: string) => void
  /**
   * `data`: links are kept as what they are, data, and their targets are not checked (a package
   * format whose archives are never unpacked by Trove and whose links may point anywhere on the
   * system they are installed on: a .deb's data archive). Default: a link must stay in the tree.
   */
  links?: 'inside' | 'data'
  /** Asked at each entry with what was kept so far: true ends the reading there (what is wanted was seen). */
  enough?: (name: string, found: ReadonlyMap<string, Buffer>) => boolean
}

/** Ends a tar reading early, once `enough` says so: not an error. */
class Enough extends Error {}

const refuse = (message: string) => new HttpError(400, `Refused archive: ${message}`)

/** Refuses entry names that climb out of the archive's tree or are absolute. */
export function checkEntryName(name: string): void {
  if (name.includes('\0')) throw refuse(`entry ${JSON.stringify(name)} has a NUL byte`)
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.startsWith('\\')) {
    throw refuse(`entry ${JSON.stringify(name)} is an absolute path`)
  }
  if (name.split(/[\\/]/).includes('..')) throw refuse(`entry ${JSON.stringify(name)} climbs out of the tree with ..`)
}

/**
 * Refuses links whose target resolves outside the archive's tree. A symbolic link is read from
 * its own folder, a hard link (tar's `link`) from the archive's root, as extractors do; a
 * backslash counts as a separator, as it does when the tree is unpacked on Windows.
 */
export function checkLinkTarget(name: string, target: string, kind: 'symlink' | 'hardlink' = 'symlink'): void {
  if (target.includes('\0')) throw refuse(`link ${JSON.stringify(name)} has a NUL byte in its target`)
  const slashed = target.replaceAll('\\', '/')
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) {
    throw refuse(`link ${JSON.stringify(name)} points to the absolute path ${JSON.stringify(target)}`)
  }
  const from = kind === 'symlink' ? path.posix.dirname(name.replaceAll('\\', '/')) : '.'
  const resolved = path.posix.normalize(path.posix.join(from, slashed))
  if (resolved === '..' || resolved.startsWith('../')) {
    throw refuse(`link ${JSON.stringify(name)} points out of the tree (${JSON.stringify(target)})`)
  }
}

/**
 * Reads a .tar.gz (or plain .tar) safely: every entry's name and link target is checked, the
 * expanded size is counted over the whole archive, and only wanted entries are kept in memory.
 * `data` is the archive, or the path of a file holding it (then it is streamed).
 */
export async function readTarGz(data: Buffer | string, options: TarReadOptions): Promise<Map<string, Buffer>> {
  let gzipped: boolean
  if (Buffer.isBuffer(data)) gzipped = data.length > 2 && data[0] === 0x1f && data[1] === 0x8b
  else {
    const handle = await fs.promises.open(data, 'r')
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0)
      gzipped = bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b
    } finally {
      await handle.close()
    }
  }
  const source = Buffer.isBuffer(data) ? Readable.from([data]) : fs.createReadStream(data)
  return readTar(gzipped ? [source, zlib.createGunzip()] : [source], gzipped ? 'gzip ' : '', options)
}

/**
 * Reads a tar archive from a chain of streams (its source, then any decompressors) with the same
 * checks as readTarGz. `kind` names the compression in the refusal of an unreadable archive.
 */
export async function readTar(
  streams: (NodeJS.ReadableStream | NodeJS.ReadWriteStream)[],
  kind: string,
  options: TarReadOptions,
): Promise<Map<string, Buffer>> {
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
      if (options.links !== 'data') {
        if (header.type === 'symlink') checkLinkTarget(name, header.linkname ?? '')
        else if (header.type === 'link') checkLinkTarget(name, header.linkname ?? '', 'hardlink')
      }
      if (options.enough?.(name, found)) throw new Enough()
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
  try {
    await pipeline([...streams, extract])
  } catch (error) {
    if (error instanceof Enough) return found
    if (error instanceof HttpError) throw error
    throw refuse(`it is not a readable ${kind}tar archive (${(error as Error).message})`)
  }
  return found
}

/**
 * Reads a zip (a wheel, a zip sdist) safely: every entry's name is checked, symlinks must point
 * inside the tree, the sizes the entries declare are added up against the expansion limit before
 * anything is inflated (yauzl also checks each entry inflates to exactly its declared size), and
 * only wanted entries are kept in memory.
 */
export async function readZip(data: Buffer | string, options: TarReadOptions): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>()
  const maxEntry = options.maxEntryBytes ?? 16 * 1024 * 1024
  let zip: yauzl.ZipFile
  try {
    const zipOptions = { lazyEntries: true, validateEntrySizes: true, decodeStrings: false, autoClose: false }
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      const done = (error: Error | null, z?: yauzl.ZipFile) => (error || !z ? reject(error) : resolve(z))
      if (typeof data === 'string') yauzl.open(data, zipOptions, done)
      else yauzl.fromBuffer(data, zipOptions, done)
    })
  } catch (error) {
    throw refuse(`it is not a readable zip archive (${(error as Error).message})`)
  }
  const readEntry = (entry: yauzl.Entry) =>
    new Promise<Buffer>((resolve, reject) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error)
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('error', reject)
        stream.on('end', () => resolve(Buffer.concat(chunks)))
      }),
    )
  let expanded = 0
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject)
      zip.on('end', () => resolve())
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const name = (entry.fileName as unknown as Buffer).toString('utf8')
          checkEntryName(name)
          options.entry?.(name)
          expanded += entry.uncompressedSize
          if (expanded > options.maxExpandedBytes) throw refuse(`it expands beyond ${options.maxExpandedBytes} bytes`)
          const mode = (entry.externalFileAttributes >>> 16) & 0o170000
          if (mode === 0o120000) {
            if (entry.uncompressedSize > 4096) throw refuse(`link ${JSON.stringify(name)} has an overlong target`)
            checkLinkTarget(name, (await readEntry(entry)).toString('utf8'))
          } else if (!name.endsWith('/') && options.want(name)) {
            if (entry.uncompressedSize > maxEntry) throw refuse(`entry ${name} is larger than ${maxEntry} bytes`)
            found.set(name, await readEntry(entry))
          }
          zip.readEntry()
        })().catch(reject)
      })
      zip.readEntry()
    })
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw refuse(`it is not a readable zip archive (${(error as Error).message})`)
  } finally {
    zip.close()
  }
  return found
}
