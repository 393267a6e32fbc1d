import { startsWith } from '../../core/sqlLike.js'
import type { FormatContext } from '../kit/types.js'
import { type Descriptor, parseManifest } from './manifest.js'

/** The file properties naming the manifest a referrer's subject is (OCI 1.1), and its artifact type. */
export const SUBJECT_PROPERTY = 'oci.subject'
export const ARTIFACT_TYPE_PROPERTY = 'oci.artifactType'

/** The manifests of `image` in the repositories `keys` whose subject is `digest`: OCI 1.1's referrers, as descriptors. */
export async function referrersOf(fctx: FormatContext, keys: string[], image: string, digest: string): Promise<Descriptor[]> {
  if (keys.length === 0) return []
  const rows = await fctx.db.kysely
    .selectFrom('files as f')
    .innerJoin('file_properties as p', 'p.file_id', 'f.id')
    .select(['f.sha256', 'f.size', 'f.mime_type'])
    .where('f.repo_key', 'in', keys)
    .where(startsWith('f.path', `${image}/@manifests/`))
    .where('p.name', '=', SUBJECT_PROPERTY)
    .where('p.value', '=', digest)
    .execute()
  const found = new Map<string, Descriptor>()
  for (const row of rows) {
    if (found.has(row.sha256)) continue
    const parsed = parseManifest(Buffer.from(await fctx.blobs.readText(row.sha256)), row.mime_type)
    found.set(row.sha256, {
      mediaType: row.mime_type,
      digest: `sha256:${row.sha256}`,
      size: Number(row.size),
      ...(parsed.artifactType ? { artifactType: parsed.artifactType } : {}),
      ...(parsed.annotations ? { annotations: parsed.annotations } : {}),
    })
  }
  return [...found.values()]
}
