import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import type { Kysely } from 'kysely'
import type { BlobStore } from '../../core/blobStore.js'
import type { Database } from '../../core/schema.js'
import { like } from '../../core/sqlLike.js'
import { xzDecompressed } from '../../core/xz.js'

/** Index files larger than this (compressed or not) are not read for a listing. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024

async function expand(data: Buffer): Promise<Buffer | undefined> {
  try {
    if (data[0] === 0x1f && data[1] === 0x8b) return zlib.gunzipSync(data, { maxOutputLength: MAX_INDEX_BYTES })
    if (data.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) {
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of xzDecompressed(Readable.from([data]))) {
        size += (chunk as Buffer).length
        if (size > MAX_INDEX_BYTES) return undefined
        chunks.push(chunk as Buffer)
      }
      return Buffer.concat(chunks)
    }
    return data
  } catch {
    return undefined
  }
}

/**
 * Where a Debian remote's cached .deb is listed: the distributions whose Packages files (as the
 * remote cached them, plain, gzip or xz, by name or by hash) name its path as `Filename:`, and
 * the `Source:` field of that entry. A remote keeps no placement row for the files it caches;
 * its upstream's index files say where they belong.
 */
export async function remoteListing(
  db: Kysely<Database>,
  blobs: BlobStore,
  repoKey: string,
  debPath: string,
): Promise<{ distributions: string[]; source: string | null }> {
  const indexes = await db
    .selectFrom('files')
    .select(['path', 'sha256', 'size'])
    .where('repo_key', '=', repoKey)
    .where(like('path', 'dists/%/binary-%'))
    .execute()
  const distributions = new Set<string>()
  let source: string | null = null
  for (const index of indexes) {
    const m = /^dists\/([^/]+)\/(?:.+\/)?binary-[^/]+\/(?:Packages(?:\.gz|\.xz)?|by-hash\/[^/]+\/[0-9a-f]+)$/.exec(index.path)
    if (!m || Number(index.size) > MAX_INDEX_BYTES) continue
    const text = (await expand(await blobs.readBuffer(index.sha256)))?.toString('utf8')
    if (!text) continue
    for (const paragraph of text.split(/\n\s*\n/)) {
      if (!paragraph.split('\n').some((line) => line.trimEnd() === `Filename: ${debPath}`)) continue
      distributions.add(m[1] as string)
      source ??= /^Source:[ \t]*(.+?)[ \t]*$/m.exec(paragraph)?.[1] ?? null
    }
  }
  return { distributions: [...distributions], source }
}
