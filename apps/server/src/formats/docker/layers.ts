import type { DockerLayersResponse } from '@trove/contracts/packages'
import { badRequest } from '../../core/errors.js'
import type { FormatContext, StoredFile } from '../kit/types.js'
import { configSummary, parseManifest } from './manifest.js'
import { referrersOf } from './referrers.js'

type Summary = ReturnType<typeof configSummary>
const hexOf = (digest: string) => digest.replace(/^sha256:/, '')

/**
 * The docker-layers view of an image tag (the file is the tag's manifest.json): each layer with
 * the build step that made it, read from the stored manifest and image config. For a multi-platform
 * index, the first linux/amd64 image (else the first image) is shown.
 */
export async function dockerLayers(fctx: FormatContext, file: StoredFile): Promise<DockerLayersResponse> {
  if (!file.path.endsWith('/manifest.json')) throw badRequest('path: expected the manifest.json of an image tag')
  const title = file.path.slice(0, -'/manifest.json'.length).replace(/\/([^/]+)$/, ':$1')
  const image = file.path.split('/').slice(0, -2).join('/')
  let manifest = parseManifest(Buffer.from(await fctx.blobs.readText(file.sha256)), undefined)
  let totalSize = file.size
  if (manifest.isIndex) {
    const pick =
      manifest.manifests.find((m) => m.platform?.os === 'linux' && m.platform?.architecture === 'amd64') ?? manifest.manifests[0]
    if (pick && (await fctx.blobs.info(hexOf(pick.digest)))) {
      manifest = parseManifest(Buffer.from(await fctx.blobs.readText(hexOf(pick.digest))), pick.mediaType)
    }
  }
  let config: Record<string, unknown> | undefined
  if (manifest.config) {
    const info = await fctx.blobs.info(hexOf(manifest.config.digest))
    if (info && info.size < 4 * 1024 * 1024) {
      try {
        config = JSON.parse(await fctx.blobs.readText(info.sha256))
      } catch {
        config = undefined
      }
    }
    totalSize += manifest.config.size + manifest.layers.reduce((s, l) => s + l.size, 0)
  }
  const summary: Summary = configSummary(config, manifest.layers)
  return {
    tagInfo: {
      title,
      digest: `sha256:${file.sha256}`,
      totalSize,
      architecture: summary.architecture ?? null,
      os: summary.os ?? null,
      created: summary.created ?? null,
    },
    layers: summary.layers.map((l) => ({
      digest: l.digest,
      shortId: hexOf(l.digest).slice(0, 12),
      size: l.size,
      created: l.created ?? null,
      command: l.command ?? null,
      emptyLayer: false,
    })),
    referrers: (await referrersOf(fctx, [file.repo_key], image, `sha256:${file.sha256}`)).map((r) => ({
      digest: r.digest,
      artifactType: r.artifactType ?? null,
      mediaType: r.mediaType,
      size: r.size,
      created: r.annotations?.['org.opencontainers.image.created'] ?? null,
    })),
  }
}
