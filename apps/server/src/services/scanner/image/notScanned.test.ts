import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { imageLayer, writeLayer } from '../../../../test/scannerFixtures.js'
import type { Component } from '../types.js'
import { analyzeImage, type ImageLayer } from './analyzeImage.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-image-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const TAR = 'application/vnd.oci.image.layer.v1.tar'
const DOCKER_GZIP = 'application/vnd.docker.image.rootfs.diff.tar.gzip'

const brief = (components: Component[]) => components.map((c) => `${c.ecosystem} ${c.name}@${c.version} ${c.path}`)

const fromBytes = (digest: string, mediaType: string, bytes: Buffer): ImageLayer => ({
  digest,
  mediaType,
  size: bytes.length,
  open: async () => Readable.from([bytes]),
})

describe('analyzeImage: what it could not read', () => {
  it('reports a damaged or unsupported layer in notScanned and reads the others', async () => {
    const good = writeLayer(dir, 'good', { 'etc/os-release': 'ID=debian\nVERSION_ID=12\n', 'app/go.sum': 'a.b/c v1.0.0 h1:x=\n' })
    const later = writeLayer(dir, 'later', { 'app/Gemfile.lock': 'GEM\n  specs:\n    rack (2.2.8)\n' })
    const plain = fs.readFileSync(writeLayer(dir, 'plain', { 'app/go.sum': 'x.y/z v2.0.0 h1:x=\n' }, { gzip: false }))
    const badGzip = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.alloc(100, 0x41)])
    const truncatedGzip = fs.readFileSync(good).subarray(0, 60)
    const notTar = Buffer.from('this is not a tar archive at all, just some text that goes on for a while. '.repeat(20))
    const analysis = await analyzeImage([
      imageLayer(good),
      fromBytes('sha256:bad-gzip', DOCKER_GZIP, badGzip),
      fromBytes('sha256:truncated-gzip', DOCKER_GZIP, truncatedGzip),
      fromBytes('sha256:not-tar', TAR, notTar),
      fromBytes('sha256:truncated-tar', TAR, plain.subarray(0, 700)),
      fromBytes('sha256:zstd-by-type', 'application/vnd.oci.image.layer.v1.tar+zstd', Buffer.from('anything')),
      fromBytes('sha256:zstd-by-magic', TAR, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0])),
      { digest: 'sha256:missing', mediaType: TAR, size: 0, open: () => Promise.reject(new Error('blob not found')) },
      imageLayer(later),
    ])
    expect(analysis.notScanned.map((n) => n.layer)).toEqual([
      'sha256:bad-gzip',
      'sha256:truncated-gzip',
      'sha256:not-tar',
      'sha256:truncated-tar',
      'sha256:zstd-by-type',
      'sha256:zstd-by-magic',
      'sha256:missing',
    ])
    const reasons = Object.fromEntries(analysis.notScanned.map((n) => [n.layer, n.reason]))
    expect(reasons['sha256:bad-gzip']).toMatch(/^not a readable gzip layer/)
    expect(reasons['sha256:truncated-gzip']).toBe('not a readable gzip layer: unexpected end of file')
    expect(reasons['sha256:not-tar']).toMatch(/^not a readable tar layer: Invalid tar header/)
    expect(reasons['sha256:truncated-tar']).toBe('not a readable tar layer: Unexpected end of data')
    expect(reasons['sha256:zstd-by-type']).toBe('zstd layers are not supported')
    expect(reasons['sha256:zstd-by-magic']).toBe('zstd layers are not supported')
    expect(reasons['sha256:missing']).toBe('could not be opened: blob not found')
    // The damaged layers change nothing; the layers around them are read.
    expect(analysis.os?.id).toBe('debian')
    expect(brief(analysis.components)).toEqual(['RubyGems rack@2.2.8 app/Gemfile.lock', 'Go a.b/c@1.0.0 app/go.sum'])
  })

  it('tells a layer whose download fails midway from a damaged one', async () => {
    const plain = fs.readFileSync(writeLayer(dir, 'cut', { 'app/go.sum': 'x.y/z v2.0.0 h1:x=\n' }, { gzip: false }))
    const failing: ImageLayer = {
      digest: 'sha256:cut',
      mediaType: TAR,
      size: plain.length,
      open: async () =>
        new Readable({
          read() {
            this.push(plain.subarray(0, 1024))
            this.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
          },
        }),
    }
    expect((await analyzeImage([failing])).notScanned).toEqual([
      { layer: 'sha256:cut', reason: 'could not be read: socket hang up' },
    ])
  })

  it('reads an empty layer as changing nothing', async () => {
    const layer = writeLayer(dir, 'one-file', { 'app/go.sum': 'a.b/c v1.0.0 h1:x=\n' })
    const empty = writeLayer(dir, 'empty', {})
    const analysis = await analyzeImage([
      imageLayer(layer),
      imageLayer(empty),
      fromBytes('sha256:zero-bytes', TAR, Buffer.alloc(0)),
    ])
    expect(analysis.notScanned).toEqual([])
    expect(analysis.components).toHaveLength(1)
  })

  it('does not hold files above maxFileBytes, and says so only for those still in the final filesystem', async () => {
    const big = JSON.stringify({
      lockfileVersion: 3,
      packages: { 'node_modules/x': { version: '1.0.0' } },
      pad: 'x'.repeat(2000),
    })
    const lower = writeLayer(dir, 'big-lower', { 'a/package-lock.json': big, 'b/package-lock.json': big })
    const upper = writeLayer(dir, 'big-upper', { 'b/.wh.package-lock.json': '' })
    const analysis = await analyzeImage([imageLayer(lower), imageLayer(upper)], { maxFileBytes: 1000 })
    expect(analysis.components).toEqual([])
    expect(analysis.notScanned).toEqual([
      { layer: imageLayer(lower).digest, reason: 'a/package-lock.json: larger than 1000 bytes; not read' },
    ])
  })

  it('reports a damaged manifest of the final filesystem', async () => {
    const layer = writeLayer(dir, 'damaged', { 'app/package-lock.json': '{"lockfileVersion":' })
    const analysis = await analyzeImage([imageLayer(layer)])
    expect(analysis.components).toEqual([])
    expect(analysis.notScanned).toEqual([
      { layer: imageLayer(layer).digest, reason: expect.stringMatching(/^app\/package-lock.json: unreadable: not valid JSON/) },
    ])
  })
})
