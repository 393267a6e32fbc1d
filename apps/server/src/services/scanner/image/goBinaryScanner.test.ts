import { describe, expect, it } from 'vitest'
import { syntheticGoBinary } from '../../../../test/scannerFixtures.js'
import { GoBinaryScanner } from './goBinaryScanner.js'

const MODINFO = 'path\texample.com/app\nmod\texample.com/app\tv2.0.0\t\ndep\tgithub.com/a/b\tv0.1.0\t\n'

function scan(binary: Buffer, chunkSize: number): GoBinaryScanner {
  const scanner = new GoBinaryScanner()
  for (let at = 0; at < binary.length; at += chunkSize) scanner.push(binary.subarray(at, at + chunkSize))
  return scanner
}

describe('GoBinaryScanner', () => {
  it('finds the build information whatever the chunks, also across their boundaries', () => {
    const binary = syntheticGoBinary('go1.22.1', MODINFO, { before: 65_536, after: 100_000 })
    for (const chunkSize of [1, 3, 7, 13, 14, 15, 16, 17, 512, 4096, 65_536, binary.length]) {
      const names = scan(binary, chunkSize)
        .components('app')
        .map((c) => `${c.name}@${c.version}`)
      expect(names, `chunks of ${chunkSize}`).toEqual(['stdlib@1.22.1', 'example.com/app@2.0.0', 'github.com/a/b@0.1.0'])
    }
  })

  it('passes over candidates that are not build information, across chunks too', () => {
    const binary = syntheticGoBinary('go1.22.1', MODINFO, { before: 65_536 })
    Buffer.from('\xff Go buildinf:\u0000\u0000', 'latin1').copy(binary, 1024)
    // Flags say inline strings, and the first length claims most of the file.
    Buffer.from('\xff Go buildinf:\u0008\u0002', 'latin1').copy(binary, 2048)
    Buffer.from([0x80, 0x80, 0x02]).copy(binary, 2048 + 32)
    Buffer.from('\xff Go buildinf:\u0008\u0002', 'latin1').copy(binary, 4096)
    Buffer.from('\u0005hello', 'latin1').copy(binary, 4096 + 32)
    for (const chunkSize of [1, 15, 16, 512, 4096, binary.length]) {
      expect(scan(binary, chunkSize).components('app'), `chunks of ${chunkSize}`).toHaveLength(3)
    }
  })

  it('gives up after a bounded number of false candidates', () => {
    const binary = syntheticGoBinary('go1.22.1', MODINFO, { before: 65_536 })
    for (let at = 1024; at < 60_000; at += 1024) Buffer.from('\xff Go buildinf:\u0000\u0000', 'latin1').copy(binary, at)
    const scanner = scan(binary, 4096)
    expect(scanner.wantsMore).toBe(false)
    expect(scanner.components('app')).toEqual([])
  })

  it('stops wanting bytes once the build information is read, or at once for what is not ELF', () => {
    const binary = syntheticGoBinary('go1.22.1', MODINFO, { before: 4096, after: 1_000_000 })
    const found = scan(binary, 8192)
    expect(found.wantsMore).toBe(false)
    const script = new GoBinaryScanner()
    script.push(Buffer.from('#!/bin/sh\n'))
    expect(script.wantsMore).toBe(false)
    expect(script.components('run.sh')).toEqual([])
  })

  it('gives nothing when the file ends inside the build information', () => {
    const binary = syntheticGoBinary('go1.22.1', MODINFO, { after: 0 })
    expect(scan(binary.subarray(0, binary.length - 5), 100).components('app')).toEqual([])
  })
})
