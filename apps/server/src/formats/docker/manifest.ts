import { OciError } from './errors.js'

export const MEDIA = {
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
} as const
export const MANIFEST_TYPES: string[] = Object.values(MEDIA)
const INDEX_TYPES: string[] = [MEDIA.dockerList, MEDIA.ociIndex]

/** Repository (image) names per the distribution spec, path components separated by `/`. */
export const IMAGE_NAME = /^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$/
export const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/
export const DIGEST = /^sha256:([a-f0-9]{64})$/

export interface Descriptor {
  mediaType: string
  digest: string
  size: number
  urls?: string[]
  platform?: { architecture?: string; os?: string; variant?: string }
  /** OCI 1.1: in an index, or a referrers list, what kind of artifact the manifest is. */
  artifactType?: string
  annotations?: Record<string, string>
}

export interface ParsedManifest {
  mediaType: string
  isIndex: boolean
  config?: Descriptor
  layers: Descriptor[]
  manifests: Descriptor[]
  /** The blobs this manifest needs in the repository (config and non-foreign layers). */
  blobs: Descriptor[]
  /** OCI 1.1: the manifest this one refers to (a signature, an SBOM, an attestation of it). */
  subject?: Descriptor
  /** OCI 1.1: what kind of artifact this is (for an image manifest without one, its config's type). */
  artifactType?: string
  annotations?: Record<string, string>
}

/** OCI 1.1's subject, artifact type and annotations of a manifest or index. */
function references(json: Record<string, unknown>, config: Descriptor | undefined) {
  const subject = json.subject === undefined ? undefined : descriptor(json.subject, 'subject')
  if (json.artifactType !== undefined && typeof json.artifactType !== 'string')
    throw new OciError(400, 'MANIFEST_INVALID', 'artifactType: must be a string')
  const annotations =
    json.annotations && typeof json.annotations === 'object' && !Array.isArray(json.annotations)
      ? Object.fromEntries(Object.entries(json.annotations).filter((e): e is [string, string] => typeof e[1] === 'string'))
      : undefined
  const artifactType = (json.artifactType as string | undefined) ?? config?.mediaType
  return { ...(subject ? { subject } : {}), ...(artifactType ? { artifactType } : {}), ...(annotations ? { annotations } : {}) }
}

function descriptor(value: unknown, where: string): Descriptor {
  const d = value as Partial<Descriptor> | null
  if (
    !d ||
    typeof d !== 'object' ||
    typeof d.digest !== 'string' ||
    typeof d.size !== 'number' ||
    typeof d.mediaType !== 'string'
  ) {
    throw new OciError(400, 'MANIFEST_INVALID', `${where}: a descriptor needs mediaType, digest and size`)
  }
  if (!DIGEST.test(d.digest)) throw new OciError(400, 'DIGEST_INVALID', `${where}.digest: only sha256 digests are supported`)
  return d as Descriptor
}

/** Parses and checks a pushed manifest or index; the media type comes from Content-Type or the body. */
export function parseManifest(body: Buffer, contentType: string | undefined): ParsedManifest {
  let json: Record<string, unknown>
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    throw new OciError(400, 'MANIFEST_INVALID', 'The manifest is not valid JSON')
  }
  if (!json || typeof json !== 'object') throw new OciError(400, 'MANIFEST_INVALID', 'The manifest is not a JSON object')
  const declared = contentType?.split(';')[0]?.trim()
  const bodyType = typeof json.mediaType === 'string' ? json.mediaType : undefined
  let mediaType = declared && MANIFEST_TYPES.includes(declared) ? declared : bodyType
  if (!mediaType) mediaType = Array.isArray(json.manifests) ? MEDIA.ociIndex : MEDIA.ociManifest
  if (!MANIFEST_TYPES.includes(mediaType)) {
    throw new OciError(400, 'MANIFEST_INVALID', `Unsupported manifest media type ${mediaType}`)
  }
  if (bodyType && bodyType !== mediaType) {
    throw new OciError(400, 'MANIFEST_INVALID', `mediaType: the body says ${bodyType} but Content-Type says ${mediaType}`)
  }
  if (json.schemaVersion !== 2) throw new OciError(400, 'MANIFEST_INVALID', 'schemaVersion: must be 2')
  if (INDEX_TYPES.includes(mediaType)) {
    if (!Array.isArray(json.manifests)) throw new OciError(400, 'MANIFEST_INVALID', 'manifests: required in an index')
    const manifests = json.manifests.map((m, i) => descriptor(m, `manifests[${i}]`))
    return { mediaType, isIndex: true, layers: [], manifests, blobs: [], ...references(json, undefined) }
  }
  const config = descriptor(json.config, 'config')
  if (!Array.isArray(json.layers)) throw new OciError(400, 'MANIFEST_INVALID', 'layers: required in an image manifest')
  const layers = json.layers.map((l, i) => descriptor(l, `layers[${i}]`))
  // Foreign layers (with urls) are fetched from elsewhere: the registry need not hold them.
  const blobs = [config, ...layers.filter((l) => !l.urls?.length)]
  return { mediaType, isIndex: false, config, layers, manifests: [], blobs, ...references(json, config) }
}

/** What the console's docker-layers view shows of an image config: platform, creation, history per layer. */
export function configSummary(config: Record<string, unknown> | undefined, layers: Descriptor[]) {
  // The config is the client's JSON: history entries that are not objects are skipped.
  const history = Array.isArray(config?.history)
    ? (config.history.filter((h) => h && typeof h === 'object') as Record<string, unknown>[])
    : []
  const layered = history.filter((h) => !h.empty_layer)
  return {
    architecture: typeof config?.architecture === 'string' ? config.architecture : undefined,
    os: typeof config?.os === 'string' ? config.os : undefined,
    created: typeof config?.created === 'string' ? config.created : undefined,
    layers: layers.map((l, i) => ({
      digest: l.digest,
      size: l.size,
      mediaType: l.mediaType,
      created: typeof layered[i]?.created === 'string' ? (layered[i]?.created as string) : undefined,
      command: typeof layered[i]?.created_by === 'string' ? (layered[i]?.created_by as string) : undefined,
    })),
  }
}
