import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildGoBinary, hasGo, imageLayer, syntheticGoBinary, writeLayer, zipOf } from '../../../../test/scannerFixtures.js'
import type { Component } from '../types.js'
import { analyzeImage } from './analyzeImage.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-image-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const TAR = 'application/vnd.oci.image.layer.v1.tar'
const DOCKER_GZIP = 'application/vnd.docker.image.rootfs.diff.tar.gzip'

const DEBIAN_OS_RELEASE = `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
ID=debian
`

const dpkgEntry = (name: string, version: string, source?: string) =>
  `Package: ${name}\nStatus: install ok installed\n${source ? `Source: ${source}\n` : ''}Version: ${version}\nDescription: ${name}\n`

const BASE_STATUS = [
  dpkgEntry('base-files', '12.4+deb12u2'),
  dpkgEntry('libssl3', '3.0.11-1~deb12u2', 'openssl (3.0.11-1~deb12u2)'),
  dpkgEntry('libc6', '2.36-9+deb12u3', 'glibc'),
].join('\n')

const lockV3 = JSON.stringify({
  lockfileVersion: 3,
  packages: {
    '': { name: 'app' },
    'node_modules/express': { version: '4.18.2' },
    'node_modules/@types/node': { version: '20.8.0' },
  },
})
const lockV1 = JSON.stringify({ lockfileVersion: 1, dependencies: { lodash: { version: '4.17.20' } } })
const pomProperties = 'groupId=org.apache.logging.log4j\nartifactId=log4j-core\nversion=2.14.1\n'

/** Components as `ecosystem name@version path`, easy to read in a failure. */
const brief = (components: Component[]) =>
  components.map(
    (c) => `${c.ecosystem} ${c.name}@${c.version}${c.binary && c.binary !== c.name ? ` (${c.binary})` : ''} ${c.path}`,
  )

describe('analyzeImage', () => {
  it('reads a Debian-based application image layer by layer, as its final filesystem holds it', async () => {
    const jar = await zipOf({ 'META-INF/maven/org.apache.logging.log4j/log4j-core/pom.properties': pomProperties })
    const base = writeLayer(dir, 'debian-base', {
      'usr/lib/os-release': DEBIAN_OS_RELEASE,
      'var/lib/dpkg/status': BASE_STATUS,
      'var/lib/dpkg/status-old': dpkgEntry('stale', '0.1'),
      'usr/bin/env': { content: '#!/bin/sh\n', mode: 0o755 },
    })
    const app = writeLayer(
      dir,
      'debian-app',
      {
        'app/package-lock.json': lockV3,
        'app/legacy/package-lock.json': lockV1,
        'app/requirements.txt': 'Django==4.2.7\nrequests>=2\n',
        'app/Cargo.lock':
          '[[package]]\nname = "serde"\nversion = "1.0.190"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
        'app/Gemfile.lock': 'GEM\n  remote: https://rubygems.org/\n  specs:\n    rack (2.2.8)\n\nPLATFORMS\n  ruby\n',
        'app/go.sum': 'github.com/google/uuid v1.4.0 h1:x=\ngithub.com/google/uuid v1.4.0/go.mod h1:y=\n',
        'app/lib/log4j-app.jar': jar,
        'usr/lib/python3/dist-packages/Jinja2-3.1.2.dist-info/METADATA':
          'Metadata-Version: 2.1\nName: Jinja2\nVersion: 3.1.2\nLicense: BSD-3-Clause\n',
        'usr/local/bin/tool': {
          content: syntheticGoBinary(
            'go1.21.3',
            'path\tx\nmod\tgithub.com/acme/tool\tv1.4.0\t\ndep\tgolang.org/x/net\tv0.17.0\t\n',
          ),
          mode: 0o755,
        },
      },
      { dotSlash: false },
    )
    // apt-get install curl, rm requirements.txt, and a new legacy/ in place of the old one.
    const update = writeLayer(
      dir,
      'debian-update',
      {
        'var/lib/dpkg/status': `${BASE_STATUS}\n${dpkgEntry('curl', '7.88.1-10+deb12u4')}`,
        'app/.wh.requirements.txt': '',
        'app/legacy/.wh..wh..opq': '',
        'app/legacy/yarn.lock': 'ms@^2.1.0:\n  version "2.1.3"\n',
      },
      { gzip: false },
    )
    const analysis = await analyzeImage([imageLayer(base), imageLayer(app, DOCKER_GZIP), imageLayer(update, TAR)])
    expect(analysis.os).toEqual({ id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12 (bookworm)' })
    expect(analysis.notScanned).toEqual([])
    expect(brief(analysis.components)).toEqual([
      'crates.io serde@1.0.190 app/Cargo.lock',
      'RubyGems rack@2.2.8 app/Gemfile.lock',
      'Go github.com/google/uuid@1.4.0 app/go.sum',
      'npm ms@2.1.3 app/legacy/yarn.lock',
      'Maven org.apache.logging.log4j:log4j-core@2.14.1 app/lib/log4j-app.jar',
      'npm express@4.18.2 app/package-lock.json',
      'npm @types/node@20.8.0 app/package-lock.json',
      'PyPI jinja2@3.1.2 usr/lib/python3/dist-packages/Jinja2-3.1.2.dist-info/METADATA',
      'Go stdlib@1.21.3 usr/local/bin/tool',
      'Go github.com/acme/tool@1.4.0 usr/local/bin/tool',
      'Go golang.org/x/net@0.17.0 usr/local/bin/tool',
      'Debian base-files@12.4+deb12u2 var/lib/dpkg/status',
      'Debian openssl@3.0.11-1~deb12u2 (libssl3) var/lib/dpkg/status',
      'Debian glibc@2.36-9+deb12u3 (libc6) var/lib/dpkg/status',
      'Debian curl@7.88.1-10+deb12u4 var/lib/dpkg/status',
    ])
    expect(analysis.components.find((c) => c.name === 'openssl')).toEqual({
      ecosystem: 'Debian',
      name: 'openssl',
      version: '3.0.11-1~deb12u2',
      binary: 'libssl3',
      path: 'var/lib/dpkg/status',
    })
    expect(analysis.components.find((c) => c.name === 'jinja2')?.licenses).toEqual(['BSD-3-Clause'])
  })

  it('reads an Alpine image', async () => {
    const layer = writeLayer(dir, 'alpine', {
      'etc/os-release': 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.19.1\nPRETTY_NAME="Alpine Linux v3.19"\n',
      'lib/apk/db/installed':
        'P:musl\nV:1.2.4_git20230717-r4\nL:MIT\no:musl\n\nP:libcrypto3\nV:3.1.4-r5\nL:Apache-2.0\no:openssl\n\n',
    })
    const analysis = await analyzeImage([imageLayer(layer)])
    expect(analysis.os).toEqual({ id: 'alpine', versionId: '3.19.1', prettyName: 'Alpine Linux v3.19' })
    expect(analysis.components).toEqual([
      {
        ecosystem: 'Alpine',
        name: 'musl',
        version: '1.2.4_git20230717-r4',
        binary: 'musl',
        licenses: ['MIT'],
        path: 'lib/apk/db/installed',
      },
      {
        ecosystem: 'Alpine',
        name: 'openssl',
        version: '3.1.4-r5',
        binary: 'libcrypto3',
        licenses: ['Apache-2.0'],
        path: 'lib/apk/db/installed',
      },
    ])
  })

  it('reads a distroless image’s status.d, not its md5sums', async () => {
    const layer = writeLayer(dir, 'distroless', {
      'etc/os-release': 'ID=debian\nVERSION_ID="12"\n',
      'var/lib/dpkg/status.d/libssl3': 'Package: libssl3\nSource: openssl\nVersion: 3.0.11-1~deb12u2\n',
      'var/lib/dpkg/status.d/libssl3.md5sums': 'd41d8cd98f00b204e9800998ecf8427e  usr/lib/libssl.so.3\n',
      'var/lib/dpkg/status.d/tzdata': 'Package: tzdata\nVersion: 2024a-0+deb12u1\n',
    })
    const analysis = await analyzeImage([imageLayer(layer)])
    expect(brief(analysis.components)).toEqual([
      'Debian openssl@3.0.11-1~deb12u2 (libssl3) var/lib/dpkg/status.d/libssl3',
      'Debian tzdata@2024a-0+deb12u1 var/lib/dpkg/status.d/tzdata',
    ])
  })

  it('follows overlay rules: a file over a directory, a symlink over a file, hard links, a whiteout of a directory', async () => {
    const lower = writeLayer(dir, 'lower', {
      'etc/os-release': 'ID=debian\nVERSION_ID=11\n',
      'usr/lib/os-release': 'ID=debian\nVERSION_ID=12\n',
      'opt/tool/package-lock.json': lockV1,
      'srv/a/b/go.sum': 'a.b/c v1.0.0 h1:x=\n',
      'srv/keep/go.sum': 'k.e/ep v1.0.0 h1:x=\n',
    })
    fs.mkdirSync(path.join(dir, 'upper-root', 'etc'), { recursive: true })
    fs.symlinkSync('../usr/lib/os-release', path.join(dir, 'upper-root', 'etc', 'os-release'))
    const upper = writeLayer(dir, 'upper', {
      'opt/tool': 'now a file',
      'srv/.wh.a': '',
      'data/Gemfile.lock': 'GEM\n  specs:\n    rack (2.2.8)\n',
      'data/copy/Gemfile.lock': { hardLinkTo: 'data/Gemfile.lock' },
    })
    const analysis = await analyzeImage([imageLayer(lower), imageLayer(upper)])
    // etc/os-release is now a symlink to usr/lib/os-release, so the release comes from there.
    expect(analysis.os).toEqual({ id: 'debian', versionId: '12' })
    expect(brief(analysis.components)).toEqual([
      'RubyGems rack@2.2.8 data/Gemfile.lock',
      'RubyGems rack@2.2.8 data/copy/Gemfile.lock',
      'Go k.e/ep@1.0.0 srv/keep/go.sum',
    ])
  })

  it.skipIf(!hasGo())('reads a Go binary built by the Go toolchain', { timeout: 120_000 }, async () => {
    const binary = fs.readFileSync(buildGoBinary(dir))
    const layer = writeLayer(dir, 'go', { 'ko-app/server': { content: binary, mode: 0o755 } })
    const analysis = await analyzeImage([imageLayer(layer)])
    expect(analysis.components.map((c) => `${c.name} ${c.path}`)).toEqual([
      'stdlib ko-app/server',
      'example.com/dep ko-app/server',
    ])
    expect(analysis.components[1]).toEqual({ ecosystem: 'Go', name: 'example.com/dep', version: '1.2.3', path: 'ko-app/server' })
  })
})
