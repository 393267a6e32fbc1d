import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildGoBinary, hasGo, syntheticGoBinary } from '../../../../test/scannerFixtures.js'
import { goBuildInfo } from './index.js'

const MODINFO = [
  'path\tgithub.com/acme/tool/cmd/tool',
  'mod\tgithub.com/acme/tool\tv1.4.0\th1:abc=',
  'dep\tgithub.com/google/uuid\tv1.4.0\th1:def=',
  'dep\tgolang.org/x/net\tv0.17.0\th1:ghi=',
  '=>\tgithub.com/fork/net\tv0.17.1\th1:jkl=',
  'dep\texample.com/local\tv1.0.0\t',
  '=>\t../local\t\t',
  'build\t-compiler=gc',
  '',
].join('\n')

const brief = (components: { name: string; version: string }[]) => components.map((c) => `${c.name}@${c.version}`)

describe('goBuildInfo on a synthetic binary', () => {
  it('reads the toolchain, the main module and the dependencies, replacements applied', () => {
    const components = goBuildInfo('usr/local/bin/tool', syntheticGoBinary('go1.21.3', MODINFO))
    expect(brief(components)).toEqual([
      'stdlib@1.21.3',
      'github.com/acme/tool@1.4.0',
      'github.com/google/uuid@1.4.0',
      'github.com/fork/net@0.17.1',
      'example.com/local@1.0.0',
    ])
    expect(components[0]).toEqual({ ecosystem: 'Go', name: 'stdlib', version: '1.21.3', path: 'usr/local/bin/tool' })
  })

  it('leaves out a main module built from a checkout, and reads a toolchain version without a patch', () => {
    const modinfo = 'path\texample.com/app\nmod\texample.com/app\t(devel)\t\ndep\tgithub.com/a/b\tv0.1.0\t\n'
    expect(brief(goBuildInfo('app', syntheticGoBinary('go1.20 X:boringcrypto', modinfo)))).toEqual([
      'stdlib@1.20.0',
      'github.com/a/b@0.1.0',
    ])
  })

  it('skips a magic that is not 16-byte aligned', () => {
    const binary = syntheticGoBinary('go1.21.3', MODINFO, { before: 4096 + 16 })
    Buffer.from('\xff Go buildinf:', 'latin1').copy(binary, 1001)
    expect(goBuildInfo('app', binary)).toHaveLength(5)
    expect(goBuildInfo('app', syntheticGoBinary('go1.21.3', MODINFO, { before: 4097 }))).toEqual([])
  })

  it('passes over the magic held as a string before the real build information', () => {
    const binary = syntheticGoBinary('go1.21.3', MODINFO, { before: 8192 })
    // debug/buildinfo's own copy of the magic, aligned by chance: flags 0, or random bytes after it.
    Buffer.from('\xff Go buildinf:\u0000\u0000', 'latin1').copy(binary, 1024)
    Buffer.from('\xff Go buildinf:\u0008\u0002', 'latin1').copy(binary, 2048)
    Buffer.from('not a varint or a version', 'latin1').copy(binary, 2048 + 32)
    expect(goBuildInfo('app', binary)).toHaveLength(5)
  })

  it('reads the toolchain of a binary built outside a module', () => {
    const binary = syntheticGoBinary('go1.19.8', '')
    expect(brief(goBuildInfo('app', binary))).toEqual(['stdlib@1.19.8'])
  })

  it('gives nothing for older Go, damaged build information, or a file that is no Go binary', () => {
    expect(goBuildInfo('app', syntheticGoBinary('go1.17', MODINFO, { flags: 0 }))).toEqual([])
    const whole = syntheticGoBinary('go1.21.3', MODINFO, { after: 0 })
    expect(goBuildInfo('app', whole.subarray(0, whole.length - 10))).toEqual([])
    expect(goBuildInfo('app', whole.subarray(0, 4096 + 20))).toEqual([])
    expect(goBuildInfo('app', Buffer.from('#!/bin/sh\necho hi\n'))).toEqual([])
    const overlong = Buffer.concat([
      syntheticGoBinary('go1.21.3', '', { after: 0 }).subarray(0, 4096 + 32),
      Buffer.alloc(12, 0xff),
    ])
    expect(goBuildInfo('app', overlong)).toEqual([])
  })
})

describe.skipIf(!hasGo())('goBuildInfo on a binary built by the Go toolchain', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-gobuild-'))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('reads the stdlib and the required (locally replaced) dependency', { timeout: 120_000 }, () => {
    const binary = fs.readFileSync(buildGoBinary(dir))
    const components = goBuildInfo('app', binary)
    // The toolchain that built it is the one on the PATH ("go version go1.19.8 linux/amd64").
    const [, major, minor, patch] =
      /^go version go(\d+)\.(\d+)(?:\.(\d+))?/.exec(execFileSync('go', ['version'], { encoding: 'utf8' })) ?? []
    expect(brief(components)).toEqual([`stdlib@${major}.${minor}.${patch ?? 0}`, 'example.com/dep@1.2.3'])
  })
})
