import { Readable } from 'node:stream'

const GZIP_MAGIC = [0x1f, 0x8b]
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd]

export const ZSTD_NOT_SUPPORTED = 'zstd layers are not supported'

/** A layer's bytes, and what they are compressed with. */
export type LayerSource = { body: Readable; compression: 'gzip' | 'none' } | { unsupported: string }

const startsWith = (data: Buffer, magic: number[]) => magic.every((byte, i) => data[i] === byte)

/**
 * Looks at a layer's first bytes to tell gzip (whatever the media type says: registries and
 * tools disagree on the spelling) from zstd and plain tar, and hands back a stream of the whole
 * layer, the bytes looked at included. Nothing beyond those first bytes is read here.
 */
export async function sniffLayer(mediaType: string, stream: NodeJS.ReadableStream): Promise<LayerSource> {
  const iterator = stream[Symbol.asyncIterator]()
  const close = async () => {
    await iterator.return?.()
  }
  if (/zstd/i.test(mediaType)) {
    await close()
    return { unsupported: ZSTD_NOT_SUPPORTED }
  }
  const head: Buffer[] = []
  let length = 0
  let ended = false
  while (length < ZSTD_MAGIC.length) {
    const next = await iterator.next()
    if (next.done) {
      ended = true
      break
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value
    head.push(chunk)
    length += chunk.length
  }
  const first = Buffer.concat(head)
  if (startsWith(first, ZSTD_MAGIC)) {
    await close()
    return { unsupported: ZSTD_NOT_SUPPORTED }
  }
  async function* all(): AsyncGenerator<Buffer> {
    try {
      if (first.length > 0) yield first
      if (ended) return
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value
      }
    } finally {
      // Also reached when the reader stops early (a damaged layer): the source is closed then too.
      await close()
    }
  }
  return { body: Readable.from(all(), { objectMode: false }), compression: startsWith(first, GZIP_MAGIC) ? 'gzip' : 'none' }
}
