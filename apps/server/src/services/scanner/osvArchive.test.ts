import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import archiver from 'archiver'
import { afterAll, describe, expect, it } from 'vitest'
import { type ZipEntry, zipOf } from '../../../test/zip.js'
import { parseOsvRecord } from './osv.js'
import { ArchiveError, readOsvUpload, type UploadLimits } from './osvArchive.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const fixtureText = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-osv-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
let counter = 0
const tempPath = (name: string) => path.join(dir, `${counter++}-${name}`)

interface ArchiverEntry {
  name: string
  data?: string | Buffer
  /** Store as a symbolic link to this target. */
  symlink?: string
  directory?: boolean
}

/** A real zip, written by archiver (the library Trove writes its own zips with). */
async function zipWithArchiver(entries: ArchiverEntry[]): Promise<string> {
  const file = tempPath('upload.zip')
  const archive = archiver('zip', { zlib: { level: 9 } })
  const done = new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file)
    out.on('close', () => resolve())
    archive.on('error', reject)
    archive.pipe(out)
  })
  for (const entry of entries) {
    if (entry.symlink) archive.symlink(entry.name, entry.symlink, 0o777)
    else if (entry.directory) archive.append('', { name: entry.name.endsWith('/') ? entry.name : `${entry.name}/` })
    else archive.append(entry.data ?? '', { name: entry.name })
  }
  await archive.finalize()
  await done
  return file
}

/**
 * A hand-built zip, for what no well-behaved writer produces: names that climb out of the tree
 * or are absolute (archiver strips those), and sizes in the header that lie.
 */
function hostileZip(entries: ZipEntry[]): string {
  const file = tempPath('hostile.zip')
  fs.writeFileSync(file, zipOf(entries))
  return file
}

async function readAll(file: string, limits?: UploadLimits) {
  const out: { name: string; json: unknown }[] = []
  for await (const record of readOsvUpload(file, limits)) out.push(record)
  return out
}

async function refusal(file: string, limits?: UploadLimits): Promise<ArchiveError> {
  try {
    await readAll(file, limits)
  } catch (error) {
    expect(error).toBeInstanceOf(ArchiveError)
    return error as ArchiveError
  }
  throw new Error('expected the upload to be refused')
}

describe('readOsvUpload', () => {
  it('reads an osv.dev-style zip: records at the root and in folders, other files skipped', async () => {
    const file = await zipWithArchiver([
      { name: 'GHSA-35jh-r3h4-6jhm.json', data: fixtureText('GHSA-35jh-r3h4-6jhm.json') },
      { name: 'crates/', directory: true },
      { name: 'crates/RUSTSEC-2021-0003.json', data: fixtureText('RUSTSEC-2021-0003.json') },
      { name: 'README.txt', data: 'not a record' },
      { name: 'notes.JSON.bak', data: '{' },
      { name: 'GO-2020-0015.JSON', data: `\uFEFF${fixtureText('GO-2020-0015.json')}` },
    ])
    const records = await readAll(file)
    expect(records.map((r) => r.name)).toEqual(['GHSA-35jh-r3h4-6jhm.json', 'crates/RUSTSEC-2021-0003.json', 'GO-2020-0015.JSON'])
    expect(records.map((r) => parseOsvRecord(r.json, r.name).id)).toEqual([
      'GHSA-35jh-r3h4-6jhm',
      'RUSTSEC-2021-0003',
      'GO-2020-0015',
    ])
  })

  it('reads a single JSON record, and a JSON array of records', async () => {
    const single = tempPath('GHSA-xvch-5gv4-984h.json')
    fs.writeFileSync(single, fixtureText('GHSA-xvch-5gv4-984h.json'))
    const one = await readAll(single)
    expect(one.map((r) => r.name)).toEqual([path.basename(single)])
    expect(parseOsvRecord(one[0]?.json, one[0]?.name ?? '').id).toBe('GHSA-xvch-5gv4-984h')

    const array = tempPath('advisories.json')
    fs.writeFileSync(array, `[${fixtureText('DSA-5532-1.json')},${fixtureText('ALPINE-CVE-2023-3446.json')}]`)
    const many = await readAll(array)
    expect(many.map((r) => r.name)).toEqual([`${path.basename(array)}[0]`, `${path.basename(array)}[1]`])
    expect(many.map((r) => parseOsvRecord(r.json, r.name).id)).toEqual(['DSA-5532-1', 'ALPINE-CVE-2023-3446'])
  })

  it('stops cleanly when the reader stops early', async () => {
    const file = await zipWithArchiver([
      { name: 'a.json', data: '{"id":"A"}' },
      { name: 'b.json', data: '{"id":"B"}' },
    ])
    for await (const record of readOsvUpload(file)) {
      expect(record.name).toBe('a.json')
      break
    }
  })

  it('refuses invalid JSON, naming the entry or the file', async () => {
    const zip = await zipWithArchiver([
      { name: 'ok.json', data: '{"id":"A"}' },
      { name: 'broken/GHSA-bad.json', data: '{"id": ' },
    ])
    const inZip = await refusal(zip)
    expect(inZip.entry).toBe('broken/GHSA-bad.json')
    expect(inZip.message).toMatch(/^broken\/GHSA-bad\.json: not valid JSON/)

    const file = tempPath('broken.json')
    fs.writeFileSync(file, '[{"id": "A"},')
    expect((await refusal(file)).message).toMatch(/broken\.json: not valid JSON/)
  })

  it('refuses entries that climb out of the tree, absolute paths and drive letters', async () => {
    const data = Buffer.from('{"id":"X"}')
    for (const name of [
      '../evil.json',
      'advisories/../../evil.json',
      '/etc/evil.json',
      'C:/evil.json',
      'C:\\evil.json',
      '..\\evil.json',
    ]) {
      const error = await refusal(
        hostileZip([
          { name: 'fine.json', data },
          { name, data },
        ]),
      )
      expect(error.entry, name).toBe(name)
      expect(error.message, name).toContain(JSON.stringify(name))
    }
  })

  it('refuses symbolic links', async () => {
    const file = await zipWithArchiver([
      { name: 'a.json', data: '{"id":"A"}' },
      { name: 'link.json', symlink: '/etc/passwd' },
    ])
    const error = await refusal(file)
    expect(error.entry).toBe('link.json')
    expect(error.message).toContain('symbolic link')
  })

  it('refuses a small zip that expands past the limits', async () => {
    // About a kilobyte compressed, a mebibyte expanded.
    const bomb = await zipWithArchiver([{ name: 'bomb.json', data: Buffer.alloc(1024 * 1024, 0x20) }])
    expect(fs.statSync(bomb).size).toBeLessThan(8 * 1024)
    expect((await refusal(bomb, { maxEntryBytes: 64 * 1024 })).entry).toBe('bomb.json')

    // Each entry is within its own limit; together they are not.
    const spread = await zipWithArchiver(
      Array.from({ length: 5 }, (_, i) => ({ name: `r${i}.json`, data: `"${' '.repeat(40 * 1024)}"` })),
    )
    const total = await refusal(spread, { maxEntryBytes: 64 * 1024, maxTotalBytes: 100 * 1024 })
    expect(total.message).toContain('expands past 102400 bytes')
    expect(total.entry).toBe('r2.json')
  })

  it('counts the bytes that inflate, not what the header claims', async () => {
    const liar = hostileZip([{ name: 'liar.json', data: Buffer.alloc(512 * 1024, 0x20), declaredSize: 10 }])
    const error = await refusal(liar, { maxEntryBytes: 64 * 1024 })
    expect(error.entry).toBe('liar.json')
    expect(error.message).toMatch(/^entry liar\.json cannot be read \(too many bytes in the stream/)
  })

  it('refuses a zip with more entries than allowed', async () => {
    const file = await zipWithArchiver([
      { name: 'a.json', data: '{}' },
      { name: 'b.json', data: '{}' },
      { name: 'c.txt', data: '' },
    ])
    expect((await refusal(file, { maxEntries: 2 })).message).toContain('holds 3 entries, more than the 2 allowed')
    expect(await readAll(file, { maxEntries: 3 })).toHaveLength(2)
  })

  it('refuses a file that is neither a zip nor JSON, and a damaged zip', async () => {
    const text = tempPath('notes.txt')
    fs.writeFileSync(text, 'hello')
    expect((await refusal(text)).message).toMatch(/notes\.txt: not valid JSON/)

    const damaged = tempPath('damaged.zip')
    fs.writeFileSync(damaged, Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]))
    expect((await refusal(damaged)).message).toMatch(/damaged\.zip: not a readable zip archive/)
  })
})
