import type { Selectable } from 'kysely'
import type { FilesTable } from '../../core/schema.js'
import { startsWith } from '../../core/sqlLike.js'
import type { FormatContext } from '../kit/types.js'
import { manifestPath } from './layout.js'

/**
 * What an image tag needs beside its own files: the manifest it names, for an index the manifests
 * it lists, and the layers and configs of those (the image's blobs with their digests). A release
 * bundle of the tag ships them with it.
 */
export const imageVersionFiles =
  (fctx: FormatContext) =>
  async (repoKey: string, image: string, metadata: string): Promise<Selectable<FilesTable>[]> => {
    const db = fctx.db.kysely
    const meta = JSON.parse(metadata) as { digest?: string; manifests?: { digest: string }[] }
    const digests = [meta.digest, ...(meta.manifests ?? []).map((m) => m.digest)].filter((d): d is string => !!d)
    const paths = digests.map((d) => manifestPath(image, d.replace(/^sha256:/, '')))
    if (paths.length === 0) return []
    const files = await db.selectFrom('files').selectAll().where('repo_key', '=', repoKey).where('path', 'in', paths).execute()
    const own = manifestPath(image, (meta.digest ?? '').replace(/^sha256:/, ''))
    for (const m of files.filter((x) => x.path !== own)) {
      const body = JSON.parse(await fctx.blobs.readText(m.sha256)) as {
        layers?: { digest: string }[]
        config?: { digest: string }
      }
      const want = [...(body.layers ?? []), ...(body.config ? [body.config] : [])].map((d) => d.digest.replace(/^sha256:/, ''))
      for (const hex of want) {
        const layer = await db
          .selectFrom('files')
          .selectAll()
          .where('repo_key', '=', repoKey)
          .where('sha256', '=', hex)
          .where(startsWith('path', `${image}/`))
          .limit(1)
          .executeTakeFirst()
        if (layer) files.push(layer)
      }
    }
    return files
  }
