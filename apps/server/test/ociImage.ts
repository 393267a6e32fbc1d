import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex')

export interface OciImage {
  /** The OCI image layout directory, as skopeo reads it (`oci:<layout>:<tag>`). */
  layout: string
  /** The layer uncompressed, and as pushed (gzipped). */
  layerTar: Buffer
  layer: Buffer
  config: Buffer
  manifest: Buffer
}

/** The history an image built by a two-step Dockerfile has: one empty layer, one that copies. */
export const TWO_STEP_HISTORY = [
  { created: '2026-01-02T03:04:00Z', created_by: 'ENV A=1', empty_layer: true },
  { created: '2026-01-02T03:04:05Z', created_by: 'COPY hello.txt /' },
]

function runOrThrow(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr?.toString() ?? result.error}`)
}

/**
 * An image built in `dir` with the real tar and gzip: one layer holding `hello.txt` with `content`,
 * its config (with `history`) and an OCI manifest, in an OCI image layout tagged `tag`.
 */
export function writeOciImage(
  dir: string,
  {
    content,
    tag,
    history = TWO_STEP_HISTORY,
    files,
  }: { content: string; tag: string; history?: object[]; files?: Record<string, string> },
): OciImage {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true })
  // `files` (path → content) makes a root file system instead of the one hello.txt.
  const layerFiles = files ?? { 'hello.txt': content }
  for (const [file, text] of Object.entries(layerFiles)) {
    fs.mkdirSync(path.dirname(path.join(dir, 'src', file)), { recursive: true })
    fs.writeFileSync(path.join(dir, 'src', file), text)
  }
  runOrThrow('tar', ['-cf', '../layer.tar', ...fs.readdirSync(path.join(dir, 'src')).sort()], path.join(dir, 'src'))
  runOrThrow('gzip', ['-kn', 'layer.tar'], dir)
  const layerTar = fs.readFileSync(path.join(dir, 'layer.tar'))
  const layer = fs.readFileSync(path.join(dir, 'layer.tar.gz'))
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      created: '2026-01-02T03:04:05Z',
      config: {},
      rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(layerTar)}`] },
      history,
    }),
  )
  const manifestType = 'application/vnd.oci.image.manifest.v1+json'
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: manifestType,
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${sha256(config)}`, size: config.length },
      layers: [
        { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: `sha256:${sha256(layer)}`, size: layer.length },
      ],
    }),
  )
  const layout = path.join(dir, 'layout')
  fs.mkdirSync(path.join(layout, 'blobs', 'sha256'), { recursive: true })
  for (const blob of [layer, config, manifest]) fs.writeFileSync(path.join(layout, 'blobs', 'sha256', sha256(blob)), blob)
  fs.writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }))
  fs.writeFileSync(
    path.join(layout, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: manifestType,
          digest: `sha256:${sha256(manifest)}`,
          size: manifest.length,
          annotations: { 'org.opencontainers.image.ref.name': tag },
        },
      ],
    }),
  )
  return { layout, layerTar, layer, config, manifest }
}
