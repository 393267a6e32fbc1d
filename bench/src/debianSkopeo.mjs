// skopeo from Debian 13 (trixie), unpacked into bench/.skopeo/ beside the machine's own.
//
// Debian 12's skopeo 1.9.3 is built with Go 1.19, whose sha256 does not use the CPU's SHA
// instructions, and skopeo hashes every layer twice on a copy: on 2 cores it cannot push or pull a
// gigabyte at 300 MB/s even to a registry that stores nothing (see ociSink.mjs). Debian 13's 1.18
// (Go 1.24) can. It needs Debian 13's C library, so it runs through that library's own loader from
// the same folder. Nothing is installed on the system: apt reads a sources list and keeps its
// state in bench/.skopeo/apt, and the packages are only unpacked.
import fs from 'node:fs'
import path from 'node:path'
import { run } from './exec.mjs'

const SUITE = 'trixie'
const PACKAGES = ['skopeo', 'libc6', 'libgpgme11t64', 'libassuan9', 'libgpg-error0', 'libsqlite3-0']

/** The Debian mirror this machine's apt uses (its first non-security source). */
function mirror() {
  const uris = []
  const dir = '/etc/apt/sources.list.d'
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!name.endsWith('.sources')) continue
    for (const m of fs.readFileSync(path.join(dir, name), 'utf8').matchAll(/^URIs:\s*(\S+)/gm)) uris.push(m[1])
  }
  if (fs.existsSync('/etc/apt/sources.list')) {
    for (const m of fs.readFileSync('/etc/apt/sources.list', 'utf8').matchAll(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)/gm)) uris.push(m[1])
  }
  return uris.find((u) => !u.includes('security'))
}

/**
 * A function that runs Debian 13's skopeo with the given arguments, fetched on first use; throws
 * with the reason when it cannot be had here (not amd64, no apt, no mirror).
 */
export async function debianSkopeo() {
  const home = new URL('../.skopeo/', import.meta.url).pathname
  const root = path.join(home, 'root')
  const lib = path.join(root, 'usr/lib/x86_64-linux-gnu')
  const loader = path.join(lib, 'ld-linux-x86-64.so.2')
  const bin = path.join(root, 'usr/bin/skopeo')
  const skopeo = (args) => run(loader, ['--library-path', lib, bin, ...args])
  if (fs.existsSync(bin) && fs.existsSync(loader)) return skopeo
  if (process.arch !== 'x64') throw new Error('only unpacked for amd64')
  const uri = mirror()
  if (!uri) throw new Error('no Debian mirror in /etc/apt')
  const apt = path.join(home, 'apt')
  for (const dir of ['lists/partial', 'cache/archives/partial', 'parts', 'debs'])
    fs.mkdirSync(path.join(apt, dir), { recursive: true })
  fs.writeFileSync(
    path.join(apt, 'sources.list'),
    `deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${uri} ${SUITE} main\n`,
  )
  const options = [
    '-q',
    '-o',
    `Dir::Etc::SourceList=${path.join(apt, 'sources.list')}`,
    '-o',
    `Dir::Etc::SourceParts=${path.join(apt, 'parts')}`,
    '-o',
    `Dir::State::Lists=${path.join(apt, 'lists')}`,
    '-o',
    `Dir::Cache=${path.join(apt, 'cache')}`,
    '-o',
    'APT::Sandbox::User=root',
  ]
  await run('apt-get', [...options, 'update'])
  await run('apt-get', [...options, 'download', ...PACKAGES.map((p) => `${p}/${SUITE}`)], { cwd: path.join(apt, 'debs') })
  for (const deb of fs.readdirSync(path.join(apt, 'debs'))) await run('dpkg-deb', ['-x', path.join(apt, 'debs', deb), root])
  await skopeo(['--version'])
  return skopeo
}
