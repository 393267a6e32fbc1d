import path from 'node:path'
import zlib from 'node:zlib'
import fc from 'fast-check'
import tar from 'tar-stream'
import { describe, expect, it } from 'vitest'
import { FUZZ_TEST_TIMEOUT, fuzzParams, hostilePath } from '../../../test/fuzz.js'
import { type ZipEntry, zipOf } from '../../../test/zip.js'
import { HttpError } from '../../core/errors.js'
import { readTarGz, readZip } from './archive.js'

interface TarEntry {
  name: string
  type: 'file' | 'directory' | 'symlink' | 'link'
  linkname?: string
  data?: Buffer
}

async function tarOf(entries: TarEntry[]): Promise<Buffer> {
  const pack = tar.pack()
  for (const e of entries) {
    if (e.type === 'file') pack.entry({ name: e.name, type: 'file' }, e.data ?? Buffer.alloc(0))
    else pack.entry({ name: e.name, type: e.type, linkname: e.linkname })
  }
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const chunk of pack) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

const TARGET = '/srv/extract/target'

/** Where an entry would land if the archive were extracted into TARGET, read as POSIX and as Windows paths. */
function landsOutside(name: string): boolean {
  const posix = path.posix.resolve(TARGET, name)
  const win = path.win32.resolve('C:\\target', name)
  return (
    !(posix === TARGET || posix.startsWith(`${TARGET}/`)) ||
    !(win.toLowerCase() === 'c:\\target' || win.toLowerCase().startsWith('c:\\target\\'))
  )
}

/** Where a link would point: a symlink's target from its own folder, a hard link's from the archive's root. */
function linkLeaves(name: string, type: 'symlink' | 'link', target: string): boolean {
  const t = target.replaceAll('\\', '/')
  if (t.startsWith('/') || /^[A-Za-z]:/.test(t)) return true
  const from = type === 'symlink' ? path.posix.dirname(`/root/${name.replaceAll('\\', '/')}`) : '/root'
  const resolved = path.posix.resolve(from, t)
  return !(resolved === '/root' || resolved.startsWith('/root/'))
}

/** A clean refusal: the archive module's own 400, never another kind of error. */
async function refusedOrRead<T>(read: () => Promise<T>): Promise<T | HttpError> {
  try {
    return await read()
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).status).toBe(400)
    expect((error as HttpError).message).toMatch(/^Refused archive: /)
    return error as HttpError
  }
}

// Names a tar header carries faithfully (no NUL, short enough for ustar or pax).
const tarName = fc.oneof(
  hostilePath.filter((n) => !n.includes('\0') && n.length > 0 && n.length < 200),
  fc.constantFrom('package/package.json', 'package/README.md', 'package/lib/index.js'),
)
const tarEntry: fc.Arbitrary<TarEntry> = fc.oneof(
  fc.record({ name: tarName, type: fc.constant('file' as const), data: fc.uint8Array({ maxLength: 64 }).map(Buffer.from) }),
  fc.record({ name: tarName, type: fc.constant('directory' as const) }),
  fc.record({
    name: tarName,
    type: fc.constantFrom('symlink' as const, 'link' as const),
    linkname: fc.oneof(tarName, fc.constantFrom('../x', '../../etc/passwd', '/etc/passwd', 'a/../../b', '..\\..\\x', 'C:/x')),
  }),
)

const LIMITS = { maxExpandedBytes: 64 * 1024, maxEntryBytes: 16 * 1024 }

describe('tar(.gz) reading under hostile input', () => {
  it(
    'reads or refuses any tree of entries, and never hands out one that lands outside the target',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(tarEntry, { maxLength: 6 }), fc.boolean(), async (entries, gzip) => {
          const plain = await tarOf(entries)
          const data = gzip ? zlib.gzipSync(plain) : plain
          const handed: string[] = []
          const result = await refusedOrRead(() =>
            readTarGz(data, {
              ...LIMITS,
              want: (n) => {
                handed.push(n)
                return true
              },
            }),
          )
          for (const n of handed) expect(landsOutside(n), n).toBe(false)
          const hostile = entries.some(
            (e) =>
              landsOutside(e.name) ||
              ((e.type === 'symlink' || e.type === 'link') && linkLeaves(e.name, e.type, e.linkname ?? '')),
          )
          if (hostile) expect(result).toBeInstanceOf(HttpError)
        }),
        fuzzParams(300),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'refuses arbitrary bytes, truncated archives and flipped bytes cleanly',
    async () => {
      const sample = await tarOf([
        { name: 'package/package.json', type: 'file', data: Buffer.from('{"name":"a","version":"1.0.0"}') },
        { name: 'package/README.md', type: 'file', data: Buffer.alloc(3000, 'r') },
      ])
      const gz = zlib.gzipSync(sample)
      const mangled = fc.oneof(
        fc.uint8Array({ maxLength: 2048 }).map(Buffer.from),
        fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.from(b)])),
        fc.nat({ max: sample.length }).map((n) => sample.subarray(0, n)),
        fc.nat({ max: gz.length }).map((n) => gz.subarray(0, n)),
        fc
          .array(fc.tuple(fc.nat({ max: sample.length - 1 }), fc.nat({ max: 255 })), { minLength: 1, maxLength: 8 })
          .map((flips) => {
            const copy = Buffer.from(sample)
            for (const [at, byte] of flips) copy[at] = byte
            return copy
          }),
      )
      await fc.assert(
        fc.asyncProperty(mangled, async (data) => {
          await refusedOrRead(() => readTarGz(data, { ...LIMITS, want: () => true }))
        }),
        fuzzParams(300),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'refuses a header that declares a huge size, whatever follows it',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.bigInt({ min: 1n << 20n, max: (1n << 33n) - 1n }), fc.nat({ max: 4096 }), async (size, follows) => {
          const header = Buffer.from(
            await tarOf([{ name: 'package/package.json', type: 'file', data: Buffer.alloc(0) }]),
          ).subarray(0, 512)
          header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 12, 'ascii')
          header.fill(' ', 148, 156)
          let sum = 0
          for (const byte of header) sum += byte
          header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii')
          const result = await refusedOrRead(() =>
            readTarGz(Buffer.concat([header, Buffer.alloc(follows, 'x')]), { ...LIMITS, want: () => true }),
          )
          expect(result).toBeInstanceOf(HttpError)
        }),
        fuzzParams(50, { most: 2000 }),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'refuses a decompression bomb while inflating it, without holding it in memory',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 16 }), async (megabytes) => {
          const bomb = zlib.gzipSync(
            await tarOf([{ name: 'package/zeros', type: 'file', data: Buffer.alloc(megabytes * 1024 * 1024) }]),
            { level: 9 },
          )
          const before = process.memoryUsage().arrayBuffers
          const result = await refusedOrRead(() => readTarGz(bomb, { maxExpandedBytes: 1024 * 1024, want: () => false }))
          expect(result).toBeInstanceOf(HttpError)
          expect((result as HttpError).message).toMatch(/expands beyond/)
          expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024)
        }),
        fuzzParams(5, { timeoutMs: 10_000, most: 50 }),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})

const zipName = fc.oneof(
  hostilePath.filter((n) => n.length > 0 && n.length < 200),
  fc.constantFrom('pkg/METADATA', 'pkg-1.0.dist-info/METADATA', 'pkg/__init__.py'),
)
const zipEntry: fc.Arbitrary<ZipEntry> = fc.oneof(
  fc.record({ name: zipName, data: fc.uint8Array({ maxLength: 64 }).map(Buffer.from) }),
  fc.record({
    name: zipName,
    data: fc.oneof(zipName, fc.constantFrom('../x', '/etc/passwd', '..\\..\\x')).map((t) => Buffer.from(t)),
    symlink: fc.constant(true),
  }),
  fc.record({
    name: zipName,
    data: fc.uint8Array({ maxLength: 64 }).map(Buffer.from),
    declaredSize: fc.oneof(fc.nat({ max: 128 }), fc.constantFrom(0xffffffff, 0x7fffffff, 1 << 24)),
  }),
)

describe('zip reading under hostile input', () => {
  it(
    'reads or refuses any tree of entries, and never hands out one that lands outside the target',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(zipEntry, { maxLength: 6 }), async (entries) => {
          const handed: string[] = []
          const result = await refusedOrRead(() =>
            readZip(zipOf(entries), {
              ...LIMITS,
              want: (n) => {
                handed.push(n)
                return true
              },
            }),
          )
          for (const n of handed) expect(landsOutside(n), n).toBe(false)
          const hostile = entries.some(
            (e) => landsOutside(e.name) || (e.symlink && linkLeaves(e.name, 'symlink', e.data.toString('utf8'))),
          )
          if (hostile) expect(result).toBeInstanceOf(HttpError)
          if (!(result instanceof HttpError)) {
            for (const [name, data] of result) expect(data.length, name).toBeLessThanOrEqual(LIMITS.maxEntryBytes)
          }
        }),
        fuzzParams(300),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )

  it(
    'refuses arbitrary bytes, truncated zips and flipped bytes cleanly',
    async () => {
      const sample = zipOf([
        { name: 'pkg-1.0.dist-info/METADATA', data: Buffer.from('Metadata-Version: 2.1\nName: pkg\n') },
        { name: 'pkg/__init__.py', data: Buffer.alloc(2000, 'p') },
      ])
      const mangled = fc.oneof(
        fc.uint8Array({ maxLength: 2048 }).map(Buffer.from),
        fc.nat({ max: sample.length }).map((n) => sample.subarray(0, n)),
        fc.nat({ max: sample.length }).map((n) => sample.subarray(n)),
        fc
          .array(fc.tuple(fc.nat({ max: sample.length - 1 }), fc.nat({ max: 255 })), { minLength: 1, maxLength: 8 })
          .map((flips) => {
            const copy = Buffer.from(sample)
            for (const [at, byte] of flips) copy[at] = byte
            return copy
          }),
      )
      await fc.assert(
        fc.asyncProperty(mangled, async (data) => {
          await refusedOrRead(() => readZip(data, { ...LIMITS, want: () => true }))
        }),
        fuzzParams(300),
      )
    },
    FUZZ_TEST_TIMEOUT,
  )
})

describe('regressions found by fuzzing the archive readers', () => {
  it('refuses an entry named with a bare drive (D:), which Windows reads as the current folder of that drive', async () => {
    const data = await tarOf([{ name: 'D:', type: 'file', data: Buffer.alloc(0) }])
    const result = await refusedOrRead(() => readTarGz(data, { ...LIMITS, want: () => true }))
    expect(result).toBeInstanceOf(HttpError)
    expect((result as HttpError).message).toMatch(/is an absolute path/)
  })

  it('refuses a tar hard link whose target, read from the archive root, climbs out (package/package.json -> ../x)', async () => {
    const data = await tarOf([{ name: 'package/package.json', type: 'link', linkname: '../x' }])
    const result = await refusedOrRead(() => readTarGz(data, { ...LIMITS, want: () => true }))
    expect(result).toBeInstanceOf(HttpError)
    expect((result as HttpError).message).toMatch(/points out of the tree/)
  })

  it('refuses a zip symlink that climbs out with backslashes (pkg/METADATA -> ..\\..\\x)', async () => {
    const data = zipOf([{ name: 'pkg/METADATA', data: Buffer.from('..\\..\\x'), symlink: true }])
    const result = await refusedOrRead(() => readZip(data, { ...LIMITS, want: () => true }))
    expect(result).toBeInstanceOf(HttpError)
    expect((result as HttpError).message).toMatch(/points out of the tree/)
  })
})
