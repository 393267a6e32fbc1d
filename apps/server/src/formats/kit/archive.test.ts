import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/testApp.js'
import { zipOf } from '../../../test/zip.js'
import { readZip } from './archive.js'

const want = (n: string) => n.endsWith('METADATA')
const limits = { want, maxExpandedBytes: 1024 * 1024 }

describe('zip reading (wheels)', () => {
  it('reads a wanted entry, from a buffer or from a file', async () => {
    const zip = zipOf([
      { name: 'demo-1.0.dist-info/METADATA', data: Buffer.from('Name: demo\n') },
      { name: 'demo/__init__.py', data: Buffer.from('x = 1\n') },
    ])
    expect((await readZip(zip, limits)).get('demo-1.0.dist-info/METADATA')?.toString()).toBe('Name: demo\n')
    const dir = tempDir('trove-zip-')
    try {
      fs.writeFileSync(path.join(dir, 'demo.whl'), zip)
      const found = await readZip(path.join(dir, 'demo.whl'), limits)
      expect([...found.keys()]).toEqual(['demo-1.0.dist-info/METADATA'])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses entries that climb out or are absolute, and links out of the tree', async () => {
    await expect(readZip(zipOf([{ name: 'demo/../../etc/x', data: Buffer.from('x') }]), limits)).rejects.toThrow(/climbs out/)
    await expect(readZip(zipOf([{ name: '/etc/x', data: Buffer.from('x') }]), limits)).rejects.toThrow(/absolute path/)
    await expect(
      readZip(zipOf([{ name: 'demo/link', data: Buffer.from('../../etc/passwd'), symlink: true }]), limits),
    ).rejects.toThrow(/points out of the tree/)
    // A link inside the tree is fine.
    await expect(
      readZip(zipOf([{ name: 'demo/link', data: Buffer.from('other'), symlink: true }]), limits),
    ).resolves.toBeDefined()
  })

  it('refuses a decompression bomb before inflating it, and an entry larger than it declares', async () => {
    const zeros = Buffer.alloc(4 * 1024 * 1024)
    await expect(readZip(zipOf([{ name: 'big', data: zeros }]), limits)).rejects.toThrow(/expands beyond/)
    // A header that understates the size: the inflated data may not exceed it.
    const lying = zipOf([{ name: 'x.dist-info/METADATA', data: zeros, declaredSize: 10 }])
    await expect(readZip(lying, limits)).rejects.toThrow(/Refused archive/)
    await expect(readZip(Buffer.from('not a zip'), limits)).rejects.toThrow(/not a readable zip/)
  })
})
