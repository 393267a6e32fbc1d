/**
 * Reads an uploaded advisory file: an OSV zip as osv.dev publishes them per ecosystem (one
 * `<ID>.json` per record, at the root or in folders), a single JSON record, or a JSON array of
 * records. Records are yielded one by one, unparsed beyond JSON, so a large archive is never held
 * in memory whole.
 *
 * A zip is untrusted input: entries that climb out of the tree, absolute paths, drive letters and
 * symlinks refuse the whole upload, and the bytes actually inflated (not the sizes the headers
 * claim) are counted against the limits, per entry and in total.
 */
import fs from 'node:fs'
import path from 'node:path'
import yauzl from 'yauzl'

export class ArchiveError extends Error {
  constructor(
    message: string,
    /** The entry at fault, when one is. */
    readonly entry?: string,
  ) {
    super(message)
    this.name = 'ArchiveError'
  }
}

export interface UploadLimits {
  /** The most entries a zip may hold (default 1,000,000). */
  maxEntries?: number
  /** The most bytes all records may expand to together (default 2 GiB). */
  maxTotalBytes?: number
  /** The most bytes one record may expand to (default 10 MiB). */
  maxEntryBytes?: number
}

const DEFAULTS = { maxEntries: 1_000_000, maxTotalBytes: 2 * 1024 ** 3, maxEntryBytes: 10 * 1024 ** 2 }

const ZIP_MAGIC = [Buffer.from('PK\x03\x04'), Buffer.from('PK\x05\x06')]

/** A record file's bytes as JSON; a UTF-8 byte order mark is tolerated. */
function parseJson(data: Buffer, name: string): unknown {
  try {
    return JSON.parse(data.toString('utf8').replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new ArchiveError(`${name}: not valid JSON (${(error as Error).message})`, name)
  }
}

/** Refuses names that would climb out of the tree or point elsewhere on the disk if ever extracted. */
function checkName(name: string): void {
  const quoted = JSON.stringify(name)
  if (name.includes('\0')) throw new ArchiveError(`entry ${quoted} has a NUL byte in its name`, name)
  if (name.startsWith('/') || name.startsWith('\\')) throw new ArchiveError(`entry ${quoted} is an absolute path`, name)
  if (/^[A-Za-z]:/.test(name)) throw new ArchiveError(`entry ${quoted} names a drive`, name)
  if (name.split(/[\\/]/).includes('..')) throw new ArchiveError(`entry ${quoted} climbs out of the archive with ..`, name)
}

const isSymlink = (entry: yauzl.Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000

async function* readZip(
  file: string,
  limits: Required<UploadLimits>,
  label: string,
): AsyncGenerator<{ name: string; json: unknown }> {
  let zip: yauzl.ZipFile
  try {
    // Names stay raw bytes (decodeStrings: false) so they are checked here, with messages naming them.
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true })
  } catch (error) {
    throw new ArchiveError(`${label}: not a readable zip archive (${(error as Error).message})`)
  }
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ArchiveError(`${label}: holds ${zip.entryCount} entries, more than the ${limits.maxEntries} allowed`)
    }
    let total = 0
    const entries = zip.eachEntry()
    while (true) {
      let next: IteratorResult<yauzl.Entry>
      try {
        next = await entries.next()
      } catch (error) {
        throw new ArchiveError(`${label}: not a readable zip archive (${(error as Error).message})`)
      }
      if (next.done) break
      const entry = next.value
      const name = (entry.fileName as unknown as Buffer).toString('utf8')
      checkName(name)
      if (isSymlink(entry)) throw new ArchiveError(`entry ${JSON.stringify(name)} is a symbolic link`, name)
      if (name.endsWith('/') || !name.toLowerCase().endsWith('.json')) continue
      // The header's claim refuses early; the bytes counted below are what actually holds.
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        throw new ArchiveError(`entry ${name} is larger than ${limits.maxEntryBytes} bytes`, name)
      }
      const chunks: Buffer[] = []
      let size = 0
      try {
        const stream = await zip.openReadStreamPromise(entry)
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length
          total += chunk.length
          if (size > limits.maxEntryBytes)
            throw new ArchiveError(`entry ${name} expands past ${limits.maxEntryBytes} bytes`, name)
          if (total > limits.maxTotalBytes) {
            throw new ArchiveError(`${label} expands past ${limits.maxTotalBytes} bytes (at entry ${name})`, name)
          }
          chunks.push(chunk)
        }
      } catch (error) {
        if (error instanceof ArchiveError) throw error
        throw new ArchiveError(`entry ${name} cannot be read (${(error as Error).message})`, name)
      }
      yield { name, json: parseJson(Buffer.concat(chunks), name) }
    }
  } finally {
    zip.close()
  }
}

async function* readJsonFile(
  file: string,
  limits: Required<UploadLimits>,
  label: string,
): AsyncGenerator<{ name: string; json: unknown }> {
  const { size } = await fs.promises.stat(file)
  if (size > limits.maxTotalBytes) throw new ArchiveError(`${label} is larger than ${limits.maxTotalBytes} bytes`)
  const json = parseJson(await fs.promises.readFile(file), label)
  if (!Array.isArray(json)) {
    yield { name: label, json }
    return
  }
  if (json.length > limits.maxEntries)
    throw new ArchiveError(`${label}: holds ${json.length} records, more than the ${limits.maxEntries} allowed`)
  for (const [i, record] of json.entries()) yield { name: `${label}[${i}]`, json: record }
}

/** Yields each record of an uploaded OSV zip, JSON record or JSON array, by name (its entry, or file[index]). */
/** `label` names the upload in errors (the file the user sent, not the temporary copy). */
export async function* readOsvUpload(
  file: string,
  limits: UploadLimits = {},
  label = path.basename(file),
): AsyncGenerator<{ name: string; json: unknown }> {
  const applied = {
    maxEntries: limits.maxEntries ?? DEFAULTS.maxEntries,
    maxTotalBytes: limits.maxTotalBytes ?? DEFAULTS.maxTotalBytes,
    maxEntryBytes: limits.maxEntryBytes ?? DEFAULTS.maxEntryBytes,
  }
  const head = Buffer.alloc(4)
  const handle = await fs.promises.open(file, 'r')
  try {
    await handle.read(head, 0, 4, 0)
  } finally {
    await handle.close()
  }
  if (ZIP_MAGIC.some((magic) => head.equals(magic))) yield* readZip(file, applied, label)
  else yield* readJsonFile(file, applied, label)
}
