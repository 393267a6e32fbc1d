import { PassThrough, type Readable } from 'node:stream'
import archiver from 'archiver'
import { HttpError } from '../../core/errors.js'
import { readZip } from '../kit/archive.js'

/** Go's limit on a module zip's expanded size (golang.org/x/mod/zip). */
const MAX_MODULE_BYTES = 500 * 1024 * 1024
/** Every entry gets this time, so the same tree always makes the same zip (a retry is the same upload). */
const ENTRY_TIME = new Date('2000-01-01T00:00:00Z')
const VCS_FOLDERS = new Set(['.bzr', '.git', '.hg', '.svn'])

/**
 * Whether a zip holds a module's source tree rather than a module zip: no entry names a
 * `<module>@<version>/` root (a module zip's every entry does). `git archive --format=zip <tag>`
 * and a forge's source download are such trees.
 */
export function isSourceTree(names: string[]): boolean {
  return names.length > 0 && names.every((n) => !n.includes('@'))
}

/** A file Go leaves out of a module zip: in a vendored package, or under a VCS folder. */
function excluded(rest: string): boolean {
  const parts = rest.split('/')
  if (parts.slice(0, -1).some((p) => VCS_FOLDERS.has(p))) return true
  // golang.org/x/mod/zip's isVendoredPackage: a file in a folder below a vendor folder.
  const vendor = parts.indexOf('vendor')
  return vendor >= 0 && vendor < parts.length - 2
}

/**
 * Makes the module zip Go would make from a source tree (as `go mod download` unpacks and the
 * widespread go-publish tools pack): the tree's files under `<module>@<version>/`, leaving out
 * nested modules (folders with their own go.mod), vendored packages and VCS folders. A tree
 * inside one top folder holding go.mod (a forge's zip, `git archive --prefix`) is taken from that
 * folder. The entries are read with the archive checks; the zip is deterministic.
 */
export async function moduleZipFromSource(source: string, module: string, version: string): Promise<Readable> {
  const files = await readZip(source, { want: () => true, maxExpandedBytes: MAX_MODULE_BYTES, maxEntryBytes: MAX_MODULE_BYTES })
  let names = [...files.keys()]
  const tops = new Set(names.map((n) => n.split('/')[0]))
  const [top] = tops
  if (tops.size === 1 && names.every((n) => n.includes('/')) && files.has(`${top}/go.mod`)) {
    names = names.map((n) => n.slice(`${top}/`.length))
    for (const [n, data] of [...files]) {
      files.delete(n)
      files.set(n.slice(`${top}/`.length), data)
    }
  }
  const nested = names.filter((n) => n.endsWith('/go.mod') && n !== 'go.mod').map((n) => n.slice(0, -'go.mod'.length))
  const kept = names.filter((n) => !excluded(n) && !nested.some((folder) => n.startsWith(folder))).sort()
  if (kept.length === 0) throw new HttpError(400, 'Refused module source: the archive holds no files of the module')
  const archive = archiver('zip', { zlib: { level: 6 } })
  const out = new PassThrough()
  archive.on('error', (error) => out.destroy(error))
  archive.pipe(out)
  for (const name of kept) archive.append(files.get(name) as Buffer, { name: `${module}@${version}/${name}`, date: ENTRY_TIME })
  void archive.finalize()
  return out
}
