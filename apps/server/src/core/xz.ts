import { createRequire } from 'node:module'
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'

// xz-decompress is CommonJS without named exports Node can see from ESM.
const { XzReadableStream } = createRequire(import.meta.url)('xz-decompress') as typeof import('xz-decompress')

/** A Node stream of the xz data `source` holds, decompressed (xz-decompress: xz-embedded in WebAssembly). */
export function xzDecompressed(source: Readable): Readable {
  const web = Readable.toWeb(source) as unknown as ReadableStream<Uint8Array>
  return Readable.fromWeb(new XzReadableStream(web) as unknown as WebReadableStream<Uint8Array>)
}
