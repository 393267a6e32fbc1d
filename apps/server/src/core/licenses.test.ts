import { describe, expect, it } from 'vitest'
import { isSpdxId, licenseNames, toSpdx } from './licenses.js'

describe('toSpdx', () => {
  it('turns common free-text names into SPDX ids', () => {
    const cases: [string, string][] = [
      ['Apache 2.0', 'Apache-2.0'],
      ['Apache License, Version 2.0', 'Apache-2.0'],
      ['The Apache Software License, Version 2.0', 'Apache-2.0'],
      ['MIT License', 'MIT'],
      ['The MIT License (MIT)', 'MIT'],
      ['mit', 'MIT'],
      ['BSD', 'BSD-2-Clause'],
      ['BSD 3-Clause', 'BSD-3-Clause'],
      ['new BSD', 'BSD-3-Clause'],
      ['ISC License (ISCL)', 'ISC'],
      ['Mozilla Public License 2.0 (MPL 2.0)', 'MPL-2.0'],
      ['Eclipse Public License 1.0', 'EPL-1.0'],
      ['CC0', 'CC0-1.0'],
      ['PSF', 'PSF-2.0'],
    ]
    for (const [declared, spdx] of cases) expect(toSpdx(declared), declared).toBe(spdx)
  })

  it('upgrades GNU licences as SPDX defines them', () => {
    expect(toSpdx('GPLv3')).toBe('GPL-3.0-only')
    expect(toSpdx('GPL-3.0')).toBe('GPL-3.0-only')
    expect(toSpdx('GPL-2.0+')).toBe('GPL-2.0-or-later')
    expect(toSpdx('GPLv2+')).toBe('GPL-2.0-or-later')
    expect(toSpdx('GPL-2.0 or later')).toBe('GPL-2.0-or-later')
    expect(toSpdx('LGPL-2.1')).toBe('LGPL-2.1-only')
    expect(toSpdx('GNU General Public License v3 (GPLv3)')).toBe('GPL-3.0-only')
    expect(toSpdx('GNU Lesser General Public License v2.1 or later (LGPLv2+)')).toBe('LGPL-2.1-or-later')
    expect(toSpdx('GPL-2.0-or-later')).toBe('GPL-2.0-or-later')
  })

  it('keeps SPDX expressions, normalised', () => {
    expect(toSpdx('(MIT OR Apache-2.0)')).toBe('MIT OR Apache-2.0')
    expect(toSpdx('MIT OR Apache-2.0')).toBe('MIT OR Apache-2.0')
    expect(toSpdx('MIT AND (LGPL-2.1-or-later OR BSD-3-Clause)')).toBe('MIT AND (LGPL-2.1-or-later OR BSD-3-Clause)')
    expect(toSpdx('Apache-2.0 WITH LLVM-exception')).toBe('Apache-2.0 WITH LLVM-exception')
    expect(toSpdx('(GPL-2.0 OR MIT)')).toBe('GPL-2.0-only OR MIT')
    expect(toSpdx('MPL-2.0+')).toBe('MPL-2.0+')
    expect(toSpdx('LicenseRef-Acme-Internal')).toBe('LicenseRef-Acme-Internal')
  })

  it('reads free-text choices and combinations, keeping every side', () => {
    expect(toSpdx('MIT/Apache-2.0')).toBe('MIT OR Apache-2.0')
    expect(toSpdx('MIT or Apache 2.0')).toBe('MIT OR Apache-2.0')
    expect(toSpdx('Apache 2.0 and MIT')).toBe('Apache-2.0 AND MIT')
    expect(toSpdx('(MIT or Apache 2.0)')).toBe('MIT OR Apache-2.0')
    expect(toSpdx('MIT and BSD or GPLv2')).toBe('(MIT AND BSD-2-Clause) OR GPL-2.0-only')
  })

  it('has no id for proprietary markers and unknown text', () => {
    for (const declared of ['UNLICENSED', 'unlicensed', 'SEE LICENSE IN LICENSE.md', 'Proprietary', 'Public Domain', '', '   ']) {
      expect(toSpdx(declared), declared).toBeNull()
    }
    expect(toSpdx('Unlicense')).toBe('Unlicense')
  })
})

describe('isSpdxId', () => {
  it('accepts SPDX licence ids exactly as listed, current or deprecated', () => {
    for (const id of ['MIT', 'Apache-2.0', 'GPL-3.0-or-later', 'BSD-3-Clause', '0BSD', 'GPL-2.0', 'LGPL-2.1'])
      expect(isSpdxId(id), id).toBe(true)
  })

  it('refuses anything else', () => {
    for (const id of ['mit', 'Apache 2.0', 'MIT OR Apache-2.0', 'LLVM-exception', '', 'GPLv3'])
      expect(isSpdxId(id), id).toBe(false)
  })
})

describe('licenseNames', () => {
  it('pairs each distinct declared licence with its SPDX form', () => {
    expect(licenseNames(['MIT License', ' MIT License ', 'UNLICENSED', '', 'Apache 2.0'])).toEqual([
      { name: 'MIT License', spdx: 'MIT' },
      { name: 'UNLICENSED', spdx: null },
      { name: 'Apache 2.0', spdx: 'Apache-2.0' },
    ])
  })
})
