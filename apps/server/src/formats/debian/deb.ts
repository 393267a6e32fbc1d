import fs from 'node:fs'
import { Transform } from 'node:stream'
import zlib from 'node:zlib'
import { Decompress as ZstdDecompress } from 'fzstd'
import { HttpError } from '../../core/errors.js'
import { xzDecompressed } from '../../core/xz.js'
import { readTar } from '../kit/archive.js'
import {
  ARCHITECTURE,
  field,
  isDebianVersion,
  PACKAGE_NAME,
  type Paragraph,
  parseParagraphs,
  parseRelations,
  type Relation,
  splitDescription,
} from './control.js'

const refuse = (message: string) => new HttpError(400, `Refused Debian package: ${message}`)

/** One member of an ar archive: its name, and where its data starts and how long it is. */
interface ArMember {
  name: string
  offset: number
  size: number
}

const AR_MAGIC = '!<arch>\n'
const AR_HEADER = 60

/** The members of the ar archive a .deb is (`debian-binary`, `control.tar.*`, `data.tar.*`). */
async function arMembers(file: string): Promise<ArMember[]> {
  const handle = await fs.promises.open(file, 'r')
  try {
    const { size } = await handle.stat()
    const magic = Buffer.alloc(8)
    await handle.read(magic, 0, 8, 0)
    if (magic.toString('latin1') !== AR_MAGIC) throw refuse('it is not an ar archive (a .deb starts with !<arch>)')
    const members: ArMember[] = []
    let offset = 8
    const header = Buffer.alloc(AR_HEADER)
    while (offset + AR_HEADER <= size && members.length < 16) {
      await handle.read(header, 0, AR_HEADER, offset)
      if (header.toString('latin1', 58, 60) !== '`\n') throw refuse(`the ar member header at byte ${offset} is damaged`)
      const name = header.toString('latin1', 0, 16).trim().replace(/\/$/, '')
      const length = Number(header.toString('latin1', 48, 58).trim())
      if (!Number.isSafeInteger(length) || length < 0 || offset + AR_HEADER + length > size) {
        throw refuse(`the ar member ${JSON.stringify(name)} claims more bytes than the file holds`)
      }
      members.push({ name, offset: offset + AR_HEADER, size: length })
      offset += AR_HEADER + length + (length % 2)
    }
    return members
  } finally {
    await handle.close()
  }
}

/** fzstd's streaming decompressor as a Node transform. */
function zstdTransform(): Transform {
  let decompressor: ZstdDecompress
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        decompressor.push(chunk)
        done()
      } catch (error) {
        done(error as Error)
      }
    },
    flush(done) {
      try {
        decompressor.push(new Uint8Array(0), true)
        done()
      } catch (error) {
        done(error as Error)
      }
    },
  })
  decompressor = new ZstdDecompress((data) => transform.push(Buffer.from(data)))
  return transform
}

/** The streams that turn a `*.tar[.gz|.xz|.zst]` member of the .deb into tar bytes. */
function tarStreams(file: string, member: ArMember): (NodeJS.ReadableStream | NodeJS.ReadWriteStream)[] {
  const raw = () => fs.createReadStream(file, { start: member.offset, end: member.offset + member.size - 1 })
  if (member.name.endsWith('.tar')) return [raw()]
  if (member.name.endsWith('.tar.gz')) return [raw(), zlib.createGunzip()]
  if (member.name.endsWith('.tar.zst')) return [raw(), zstdTransform()]
  if (member.name.endsWith('.tar.xz')) {
    return [xzDecompressed(raw())]
  }
  throw refuse(`${member.name} is compressed in a way Trove does not read (gzip, xz and zstd are)`)
}

/** What Trove keeps of a .deb: its control paragraph and what the console shows. */
export interface DebPackage {
  control: Paragraph
  name: string
  version: string
  architecture: string
  synopsis: string
  /** The extended description, or the package's own README. */
  readme: string | null
  /** From a machine-readable /usr/share/doc/<name>/copyright (DEP-5). */
  licenses: string[]
  relations: { scope: string; relation: Relation }[]
}

const RELATION_FIELDS = ['Pre-Depends', 'Depends', 'Recommends', 'Suggests', 'Breaks', 'Conflicts']

/** The licences a DEP-5 copyright file names (each paragraph's License short name), `Files: *` first. */
export function dep5Licenses(text: string): string[] {
  let paragraphs: Paragraph[]
  try {
    paragraphs = parseParagraphs(text)
  } catch {
    return []
  }
  const header = paragraphs[0]
  if (!header || !field(header, 'Format')?.includes('copyright-format')) return []
  const licensed = paragraphs.filter((p) => field(p, 'Files') !== undefined && field(p, 'License'))
  licensed.sort((a, b) => Number(field(b, 'Files')?.trim() === '*') - Number(field(a, 'Files')?.trim() === '*'))
  const names = licensed.map((p) => (field(p, 'License') as string).split('\n')[0]?.trim() ?? '').filter(Boolean)
  return [...new Set(names)]
}

/**
 * Reads a .deb (a file on disk): the control file of its control archive, checked by Debian
 * policy's rules, then its data archive for the copyright file and README. Both archives go
 * through the same entry and expansion checks as every archive Trove reads.
 */
export async function readDeb(file: string, maxExpandedBytes: number): Promise<DebPackage> {
  const members = await arMembers(file)
  if (members[0]?.name !== 'debian-binary') throw refuse('its first member is not debian-binary')
  const controlMember = members.find((m) => m.name.startsWith('control.tar'))
  const dataMember = members.find((m) => m.name.startsWith('data.tar'))
  if (!controlMember) throw refuse('it has no control archive (control.tar.*)')
  if (!dataMember) throw refuse('it has no data archive (data.tar.*)')
  // The control archive holds the package's metadata and scripts: a link there is refused.
  const controlFiles = await readTar(tarStreams(file, controlMember), `${controlMember.name} `, {
    want: (name) => name.replace(/^\.\//, '') === 'control',
    maxExpandedBytes,
    maxEntryBytes: 1024 * 1024,
  })
  const controlText = [...controlFiles.values()][0]
  if (!controlText) throw refuse('its control archive has no control file')
  const [control] = parseParagraphs(controlText.toString('utf8'))
  if (!control) throw refuse('its control file is empty')
  const name = field(control, 'Package') ?? ''
  const version = field(control, 'Version') ?? ''
  const architecture = field(control, 'Architecture') ?? ''
  if (!PACKAGE_NAME.test(name)) throw refuse(`Package ${JSON.stringify(name)} is not a Debian package name`)
  if (!isDebianVersion(version)) throw refuse(`Version ${JSON.stringify(version)} is not a Debian version`)
  if (!ARCHITECTURE.test(architecture)) throw refuse(`Architecture ${JSON.stringify(architecture)} is not an architecture name`)
  const { synopsis, extended } = splitDescription(field(control, 'Description'))

  const doc = (entry: string) => entry.replace(/^\.?\//, '')
  const docFiles = new Set([`usr/share/doc/${name}/copyright`, `usr/share/doc/${name}/README.md`, `usr/share/doc/${name}/README`])
  // The data archive's links point anywhere on the system the package installs on (absolute ones
  // are common); Trove never unpacks it, so they are data. dpkg-deb writes entries sorted by name:
  // past the package's doc folder, with its copyright seen, nothing wanted follows (a large package
  // is not read to its end).
  const docFolder = `usr/share/doc/${name}/`
  const data = await readTar(tarStreams(file, dataMember), `${dataMember.name} `, {
    want: (entry) => docFiles.has(doc(entry)),
    maxExpandedBytes,
    maxEntryBytes: 1024 * 1024,
    links: 'data',
    enough: (entry, kept) =>
      !doc(entry).startsWith(docFolder) && [...kept.keys()].some((k) => doc(k) === `${docFolder}copyright`),
  })
  const found = new Map([...data].map(([entry, content]) => [doc(entry), content.toString('utf8')]))
  const copyright = found.get(`usr/share/doc/${name}/copyright`)
  const readme = found.get(`usr/share/doc/${name}/README.md`) ?? found.get(`usr/share/doc/${name}/README`) ?? (extended || null)
  return {
    control,
    name,
    version,
    architecture,
    synopsis,
    readme,
    licenses: copyright ? dep5Licenses(copyright) : [],
    relations: RELATION_FIELDS.flatMap((f) =>
      parseRelations(field(control, f)).map((relation) => ({ scope: f.toLowerCase(), relation })),
    ),
  }
}
