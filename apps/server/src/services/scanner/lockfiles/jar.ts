import yauzl from 'yauzl'
import type { Component } from '../types.js'
import { ComponentList } from './components.js'
import { parseProperties } from './maven.js'

const POM_PROPERTIES = /^META-INF\/maven\/[^/]+\/[^/]+\/pom\.properties$/
const NESTED_JAR = /^(WEB-INF|BOOT-INF)\/lib\/[^/]+\.jar$/
const MAX_POM_PROPERTIES_BYTES = 64 * 1024
const MAX_NESTED_JAR_BYTES = 64 * 1024 * 1024
/** The most all of one jar's reads may expand to, so a zip bomb costs bounded work. */
const MAX_EXPANDED_BYTES = 512 * 1024 * 1024

type Zip = yauzl.ZipFile

const openZip = (jar: Buffer) =>
  new Promise<Zip>((resolve, reject) =>
    yauzl.fromBuffer(jar, { lazyEntries: true, validateEntrySizes: true, autoClose: false }, (error, zip) =>
      error || !zip ? reject(error ?? new Error('unreadable zip')) : resolve(zip),
    ),
  )

const readEntry = (zip: Zip, entry: yauzl.Entry) =>
  new Promise<Buffer>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error ?? new Error('unreadable entry'))
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', reject)
      stream.on('end', () => resolve(Buffer.concat(chunks)))
    }),
  )

/** Calls `visit` for each entry in turn, until the end or the first error (which is returned, not thrown). */
async function eachEntry(zip: Zip, visit: (entry: yauzl.Entry) => Promise<void>): Promise<Error | null> {
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject)
      zip.on('end', () => resolve())
      zip.on('entry', (entry: yauzl.Entry) => {
        visit(entry).then(() => zip.readEntry(), reject)
      })
      zip.readEntry()
    })
    return null
  } catch (error) {
    return error as Error
  } finally {
    zip.close()
  }
}

/**
 * The Maven artifacts in a jar or war: every `META-INF/maven/<group>/<artifact>/pom.properties`
 * (a shaded jar carries one per artifact it absorbed), and those of the jars one level down in
 * `WEB-INF/lib/` and `BOOT-INF/lib/` (wars and Spring Boot jars). Components of a nested jar have
 * the path `<jar>!/<entry>`. A jar that cannot be read gives what was read before the damage.
 */
export async function componentsOfJar(path: string, jar: Buffer): Promise<Component[]> {
  const budget = { left: MAX_EXPANDED_BYTES }
  return readJar(path, jar, budget, true)
}

async function readJar(path: string, jar: Buffer, budget: { left: number }, nested: boolean): Promise<Component[]> {
  let zip: Zip
  try {
    zip = await openZip(jar)
  } catch {
    return []
  }
  const own = new ComponentList('Maven', path)
  const inner: Component[] = []
  await eachEntry(zip, async (entry) => {
    const name = entry.fileName
    const wanted =
      (POM_PROPERTIES.test(name) && entry.uncompressedSize <= MAX_POM_PROPERTIES_BYTES) ||
      (nested && NESTED_JAR.test(name) && entry.uncompressedSize <= MAX_NESTED_JAR_BYTES)
    if (!wanted || entry.uncompressedSize > budget.left) return
    budget.left -= entry.uncompressedSize
    const content = await readEntry(zip, entry)
    if (!POM_PROPERTIES.test(name)) {
      inner.push(...(await readJar(`${path}!/${name}`, content, budget, false)))
      return
    }
    const properties = parseProperties(content.toString('utf8'))
    const group = properties.get('groupId')
    const artifact = properties.get('artifactId')
    const version = properties.get('version')
    if (group && artifact && version) own.add(`${group}:${artifact}`, version)
  })
  return [...own.items, ...inner]
}
