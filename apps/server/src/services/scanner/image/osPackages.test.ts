import { describe, expect, it } from 'vitest'
import { parseApkInstalled, parseDpkgStatus, parseOsRelease } from './osPackages.js'

const DPKG_STATUS = `Package: base-files
Status: install ok installed
Priority: required
Essential: yes
Version: 12.4+deb12u2
Description: Debian base system miscellaneous files

Package: libssl3
Status: install ok installed
Architecture: amd64
Multi-Arch: same
Source: openssl (3.0.11-1~deb12u2)
Version: 3.0.11-1~deb12u2
Description: Secure Sockets Layer toolkit - shared libraries
 This package is part of the OpenSSL project's implementation of the SSL
 and TLS cryptographic protocols.

Package: libc6
Status: install ok installed
Source: glibc
Version: 2.36-9+deb12u3

Package: old-thing
Status: deinstall ok config-files
Version: 1.0-1

Package: libgcc-s1
Status: hold ok installed
Source: gcc-12 (12.2.0-14)
Version: 12.2.0-14
`

describe('dpkg status', () => {
  it('names installed packages after their source package, at the source version', () => {
    expect(parseDpkgStatus('var/lib/dpkg/status', DPKG_STATUS)).toEqual([
      { ecosystem: 'Debian', name: 'base-files', version: '12.4+deb12u2', binary: 'base-files', path: 'var/lib/dpkg/status' },
      { ecosystem: 'Debian', name: 'openssl', version: '3.0.11-1~deb12u2', binary: 'libssl3', path: 'var/lib/dpkg/status' },
      { ecosystem: 'Debian', name: 'glibc', version: '2.36-9+deb12u3', binary: 'libc6', path: 'var/lib/dpkg/status' },
      { ecosystem: 'Debian', name: 'gcc-12', version: '12.2.0-14', binary: 'libgcc-s1', path: 'var/lib/dpkg/status' },
    ])
  })

  it('takes the source version when it differs from the binary one (binNMUs)', () => {
    const status = 'Package: libfoo1\nStatus: install ok installed\nSource: foo (1.2-3)\nVersion: 1.2-3+b1\n'
    expect(parseDpkgStatus('s', status)[0]).toMatchObject({ name: 'foo', version: '1.2-3', binary: 'libfoo1' })
  })

  it('reads a distroless status.d file, which has no Status field', () => {
    const file = 'Package: tzdata\nVersion: 2024a-0+deb12u1\nArchitecture: all\nMulti-Arch: foreign\n'
    expect(parseDpkgStatus('var/lib/dpkg/status.d/tzdata', file)).toEqual([
      { ecosystem: 'Debian', name: 'tzdata', version: '2024a-0+deb12u1', binary: 'tzdata', path: 'var/lib/dpkg/status.d/tzdata' },
    ])
  })
})

describe('apk installed database', () => {
  it('names packages after their origin, with their licence', () => {
    const installed = `C:Q1abc=
P:musl
V:1.2.4-r2
A:x86_64
L:MIT
o:musl
m:Timo Teräs <timo.teras@iki.fi>

C:Q1def=
P:libcrypto3
V:3.1.4-r5
L:Apache-2.0
o:openssl
F:lib
R:libcrypto.so.3

P:busybox-binsh
V:1.36.1-r15
L:GPL-2.0-only
`
    expect(parseApkInstalled('lib/apk/db/installed', installed)).toEqual([
      { ecosystem: 'Alpine', name: 'musl', version: '1.2.4-r2', binary: 'musl', licenses: ['MIT'], path: 'lib/apk/db/installed' },
      {
        ecosystem: 'Alpine',
        name: 'openssl',
        version: '3.1.4-r5',
        binary: 'libcrypto3',
        licenses: ['Apache-2.0'],
        path: 'lib/apk/db/installed',
      },
      {
        ecosystem: 'Alpine',
        name: 'busybox-binsh',
        version: '1.36.1-r15',
        binary: 'busybox-binsh',
        licenses: ['GPL-2.0-only'],
        path: 'lib/apk/db/installed',
      },
    ])
  })
})

describe('os-release', () => {
  it('reads ID, VERSION_ID and PRETTY_NAME, quoted or not', () => {
    const debian = `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
ID=debian
HOME_URL="https://www.debian.org/"
`
    expect(parseOsRelease(debian)).toEqual({ id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12 (bookworm)' })
    expect(parseOsRelease("ID='alpine'\nVERSION_ID=3.19.1\n")).toEqual({ id: 'alpine', versionId: '3.19.1' })
    expect(parseOsRelease('PRETTY_NAME="Debian GNU/Linux trixie/sid"\nID=debian\n')).toMatchObject({ versionId: '' })
    expect(parseOsRelease('NAME=nothing\n')).toBeNull()
  })
})
