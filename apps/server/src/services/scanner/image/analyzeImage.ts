import { MAX_MANIFEST_BYTES } from '../lockfiles/index.js'
import type { Component } from '../types.js'
import { OS_RELEASE_PATHS } from './interest.js'
import { sniffLayer } from './layerSource.js'
import type { OsRelease } from './osPackages.js'
import { Overlay } from './overlay.js'
import { readLayer } from './readLayer.js'

export interface ImageLayer {
  digest: string
  mediaType: string
  size: number
  open(): Promise<NodeJS.ReadableStream>
}

export interface ImageAnalysis {
  /** From etc/os-release, else usr/lib/os-release, of the final filesystem; null when neither is there. */
  os: OsRelease | null
  /**
   * What the final filesystem holds, sorted by path: OS packages (dpkg → ecosystem Debian for any
   * dpkg-based distribution, Ubuntu included: the caller picks the advisories by `os.id`; apk →
   * Alpine), and language packages from manifests, jars and Go binaries, each with its path.
   */
  components: Component[]
  /**
   * What could not be looked at: a layer that is not a readable tar or gzip (or is zstd), and
   * files of interest of the final filesystem that could not be read (too large, damaged), named
   * in `reason` and attributed to the layer they came from.
   */
  notScanned: { layer: string; reason: string }[]
}

export type { OsRelease } from './osPackages.js'

/**
 * Why a layer was not read: zlib's errors (codes Z_*) mean bad gzip, tar-stream's (no code) a bad
 * tar; any other coded error is the layer's source failing (a network or file error).
 */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (typeof code === 'string' && code.startsWith('Z_')) return `not a readable gzip layer: ${messageOf(error)}`
  if (code) return `could not be read: ${messageOf(error)}`
  return `not a readable tar layer: ${messageOf(error)}`
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Lists what an image holds: the layers (base first) are streamed one after the other and the
 * files of interest of their union filesystem are read. Memory stays flat whatever the image's
 * size: only files of interest are held, one at a time, up to `maxFileBytes` (default 50 MB).
 * Damaged layers are reported in `notScanned` and the others still read; content never makes it throw.
 */
export async function analyzeImage(layers: ImageLayer[], options: { maxFileBytes?: number } = {}): Promise<ImageAnalysis> {
  const maxFileBytes = options.maxFileBytes ?? MAX_MANIFEST_BYTES
  const overlay = new Overlay()
  const notScanned: ImageAnalysis['notScanned'] = []
  for (const layer of layers) {
    let stream: NodeJS.ReadableStream
    try {
      stream = await layer.open()
    } catch (error) {
      notScanned.push({ layer: layer.digest, reason: `could not be opened: ${messageOf(error)}` })
      continue
    }
    try {
      const source = await sniffLayer(layer.mediaType, stream)
      if ('unsupported' in source) {
        notScanned.push({ layer: layer.digest, reason: source.unsupported })
        continue
      }
      // A layer is applied only once read to its end: a damaged one changes nothing.
      overlay.apply(await readLayer(layer.digest, source.body, source.compression, overlay, { maxFileBytes }))
    } catch (error) {
      notScanned.push({ layer: layer.digest, reason: reasonOf(error) })
    }
  }

  let os: OsRelease | null = null
  const components: Component[] = []
  for (const [filePath, finding] of overlay.entries()) {
    components.push(...finding.components)
    if (finding.problem) notScanned.push({ layer: finding.layer, reason: `${filePath}: ${finding.problem}` })
  }
  for (const filePath of OS_RELEASE_PATHS) {
    const found = overlay.get(filePath)?.os
    if (found && !os) os = found
  }
  return { os, components, notScanned }
}
