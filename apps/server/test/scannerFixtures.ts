import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import archiver from 'archiver'
import type { ImageLayer } from '../src/services/scanner/image/analyzeImage.js'

function runOrThrow(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { cwd, env: env ?? process.env })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr?.toString() ?? result.error}`)
}

/** A file to put in a layer: its content, or its content and mode, or a hard link to another file of the layer. */
export type LayerFile = string | Buffer | { content: string | Buffer; mode: number } | { hardLinkTo: string }

/**
 * A layer built in `dir` with the real tar (and gzip): the files given, by path from the root.
 * Entry names start with "./" (as `tar -C root .` writes them) unless `dotSlash` is false.
 * Returns the layer's file.
 */
export function writeLayer(
  dir: string,
  name: string,
  files: Record<string, LayerFile>,
  { gzip = true, dotSlash = true }: { gzip?: boolean; dotSlash?: boolean } = {},
): string {
  const root = path.join(dir, `${name}-root`)
  fs.mkdirSync(root, { recursive: true })
  for (const [file, spec] of Object.entries(files)) {
    const target = path.join(root, file)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    if (typeof spec === 'object' && 'hardLinkTo' in spec) fs.linkSync(path.join(root, spec.hardLinkTo), target)
    else if (typeof spec === 'string' || Buffer.isBuffer(spec)) fs.writeFileSync(target, spec)
    else fs.writeFileSync(target, spec.content, { mode: spec.mode })
  }
  const tarFile = path.join(dir, `${name}.tar`)
  const entries = dotSlash ? ['.'] : fs.readdirSync(root)
  runOrThrow('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '-cf', tarFile, ...entries], root)
  if (!gzip) return tarFile
  runOrThrow('gzip', ['-n', tarFile], dir)
  return `${tarFile}.gz`
}

/** A layer as analyzeImage gets it, read from `file` as a stream. */
export function imageLayer(file: string, mediaType = 'application/vnd.oci.image.layer.v1.tar+gzip'): ImageLayer {
  return {
    digest: `sha256:${path.basename(file)}`,
    mediaType,
    size: fs.statSync(file).size,
    open: async () => fs.createReadStream(file),
  }
}

/** A zip (a jar) of the given entries, built with archiver; `store` keeps entries uncompressed, as Spring Boot nests its jars. */
export function zipOf(entries: Record<string, string | Buffer>, { store = false }: { store?: boolean } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = archiver('zip', { store })
    const chunks: Buffer[] = []
    zip.on('data', (chunk: Buffer) => chunks.push(chunk))
    zip.on('end', () => resolve(Buffer.concat(chunks)))
    zip.on('error', reject)
    for (const [name, content] of Object.entries(entries)) zip.append(content, { name })
    void zip.finalize()
  })
}

/** Whether the Go toolchain is on the PATH. */
export const hasGo = (): boolean => spawnSync('go', ['version']).status === 0

/**
 * A Go binary built from a small module `example.com/app` that requires `example.com/dep v1.2.3`,
 * replaced by a local directory, so the build needs no network. Returns the binary's path.
 */
export function buildGoBinary(dir: string): string {
  const app = path.join(dir, 'goapp')
  fs.mkdirSync(path.join(app, 'dep'), { recursive: true })
  fs.writeFileSync(
    path.join(app, 'go.mod'),
    'module example.com/app\n\ngo 1.18\n\nrequire example.com/dep v1.2.3\n\nreplace example.com/dep => ./dep\n',
  )
  fs.writeFileSync(
    path.join(app, 'main.go'),
    'package main\n\nimport "example.com/dep"\n\nfunc main() { println(dep.Greeting()) }\n',
  )
  fs.writeFileSync(path.join(app, 'dep', 'go.mod'), 'module example.com/dep\n\ngo 1.18\n')
  fs.writeFileSync(path.join(app, 'dep', 'dep.go'), 'package dep\n\nfunc Greeting() string { return "hello" }\n')
  const env = {
    ...process.env,
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
    GOPATH: path.join(dir, 'gopath'),
    GOCACHE: process.env.GOCACHE ?? path.join(dir, 'gocache'),
    CGO_ENABLED: '0',
  }
  runOrThrow('go', ['build', '-o', 'app', '.'], app, env)
  return path.join(app, 'app')
}

const uvarint = (value: number): Buffer => {
  const bytes: number[] = []
  let rest = value
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  bytes.push(rest)
  return Buffer.from(bytes)
}

/** The sentinels cmd/go frames the module information with (binary, not UTF-8). */
const INFO_START = Buffer.from('3077af0c9274080241e1c107e6d618e6', 'hex')
const INFO_END = Buffer.from('f932433186182072008242104116d8f2', 'hex')

/**
 * A stand-in for an ELF Go binary: `before` bytes of padding, then the build information as Go
 * 1.18+ writes it (16-byte-aligned magic, pointer size, inline-strings flag, then the version and
 * the framed module information as uvarint-length-prefixed strings), then `after` bytes.
 */
export function syntheticGoBinary(
  goVersion: string,
  modinfo: string,
  { before = 4096, after = 4096, flags = 0x2 }: { before?: number; after?: number; flags?: number } = {},
): Buffer {
  const header = Buffer.alloc(32)
  header.write('\xff Go buildinf:', 0, 'latin1')
  header[14] = 8
  header[15] = flags
  const mod = Buffer.concat([INFO_START, Buffer.from(modinfo), INFO_END])
  const version = Buffer.from(goVersion)
  const padding = Buffer.alloc(before)
  Buffer.from([0x7f, 0x45, 0x4c, 0x46]).copy(padding)
  return Buffer.concat([padding, header, uvarint(version.length), version, uvarint(mod.length), mod, Buffer.alloc(after)])
}
