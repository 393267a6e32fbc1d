import pep440 from '@renovatebot/pep440'
import { Version as GemVersion } from '@renovatebot/ruby-semver/dist/ruby/version.js'
import { describe, expect, it } from 'vitest'
import { compareVersions, normalizeName, parseEcosystem } from './ecosystems.js'
import type { Ecosystem } from './types.js'

function expectAscending(ecosystem: Ecosystem, versions: string[]) {
  for (let i = 0; i < versions.length; i++) {
    for (let j = i + 1; j < versions.length; j++) {
      const low = versions[i] as string
      const high = versions[j] as string
      expect(Math.sign(compareVersions(ecosystem, low, high)), `${low} < ${high}`).toBe(-1)
      expect(Math.sign(compareVersions(ecosystem, high, low)), `${high} > ${low}`).toBe(1)
    }
  }
}

function expectSame(ecosystem: Ecosystem, a: string, b: string) {
  expect(compareVersions(ecosystem, a, b), `${a} == ${b}`).toBe(0)
  expect(compareVersions(ecosystem, b, a), `${b} == ${a}`).toBe(0)
}

describe('parseEcosystem', () => {
  it('reads the ecosystems Trove scans, with their release suffix', () => {
    expect(parseEcosystem('npm')).toEqual({ ecosystem: 'npm', release: '' })
    expect(parseEcosystem('PyPI')).toEqual({ ecosystem: 'PyPI', release: '' })
    expect(parseEcosystem('Maven')).toEqual({ ecosystem: 'Maven', release: '' })
    expect(parseEcosystem('Go')).toEqual({ ecosystem: 'Go', release: '' })
    expect(parseEcosystem('crates.io')).toEqual({ ecosystem: 'crates.io', release: '' })
    expect(parseEcosystem('RubyGems')).toEqual({ ecosystem: 'RubyGems', release: '' })
    expect(parseEcosystem('NuGet')).toEqual({ ecosystem: 'NuGet', release: '' })
    expect(parseEcosystem('Debian:12')).toEqual({ ecosystem: 'Debian', release: '12' })
    expect(parseEcosystem('Debian')).toEqual({ ecosystem: 'Debian', release: '' })
    expect(parseEcosystem('Alpine:v3.19')).toEqual({ ecosystem: 'Alpine', release: 'v3.19' })
    expect(parseEcosystem('Maven:https://maven.google.com')).toEqual({ ecosystem: 'Maven', release: '' })
  })

  it('reads Packagist, the ecosystem of Composer packages', () => {
    expect(parseEcosystem('Packagist')).toEqual({ ecosystem: 'Packagist', release: '' })
  })

  it('returns null for ecosystems Trove does not scan, or misspelt ones', () => {
    for (const name of [
      'Ubuntu:22.04:LTS',
      'Hex',
      'NuGet:x',
      'packagist',
      'Packagist:x',
      'pypi',
      'NPM',
      'npm:extra',
      '',
      'GIT',
    ]) {
      expect(parseEcosystem(name), name).toBeNull()
    }
  })
})

describe('normalizeName', () => {
  it('normalises PyPI names by PEP 503 and leaves the others as written', () => {
    expect(normalizeName('PyPI', 'Django')).toBe('django')
    expect(normalizeName('PyPI', 'zope.interface')).toBe('zope-interface')
    expect(normalizeName('PyPI', 'Foo__Bar-.baz')).toBe('foo-bar-baz')
    expect(normalizeName('Maven', 'org.apache.logging.log4j:log4j-core')).toBe('org.apache.logging.log4j:log4j-core')
    expect(normalizeName('npm', '@Scope/Pkg')).toBe('@Scope/Pkg')
    expect(normalizeName('Go', 'github.com/BurntSushi/toml')).toBe('github.com/BurntSushi/toml')
    expect(normalizeName('Packagist', 'GuzzleHttp/Guzzle')).toBe('guzzlehttp/guzzle')
    expect(normalizeName('NuGet', 'Newtonsoft.Json')).toBe('newtonsoft.json')
  })
})

describe('compareVersions', () => {
  it('orders NuGet versions as NuGet does: up to four numbers, labels without case, metadata ignored', () => {
    expectAscending('NuGet', ['1.0.0-alpha', '1.0.0-Alpha.2', '1.0.0-beta', '1.0.0', '1.0.0.1', '1.0.1', '1.10.0', '13.0.1'])
    expectSame('NuGet', '1.0', '1.0.0.0')
    expectSame('NuGet', '01.2.3', '1.2.3+sha.abc')
    expectSame('NuGet', '1.0.0-BETA', '1.0.0-beta')
  })

  it('orders npm and crates.io versions by semver', () => {
    for (const ecosystem of ['npm', 'crates.io'] as const) {
      expectAscending(ecosystem, [
        '0.2.3',
        '0.2.4',
        '1.0.0-alpha',
        '1.0.0-alpha.1',
        '1.0.0-beta.2',
        '1.0.0-rc.1',
        '1.0.0',
        '1.2.5',
        '1.2.6',
        '4.17.20',
        '4.17.21',
      ])
      expectSame(ecosystem, '1.0.0', '1.0.0+build.5')
    }
  })

  it('orders Go modules, with their v prefix, pseudo-versions and +incompatible', () => {
    expectAscending('Go', [
      'v0.0.0-20190101000000-abcdefabcdef',
      'v0.0.0-20200101000000-abcdefabcdef',
      'v0.3.2',
      'v0.3.3',
      'v1.2.3',
      'v1.2.4-0.20210101000000-abcdefabcdef',
      'v1.2.4',
      'v2.0.0-rc.1',
      'v2.0.0+incompatible',
      'v2.1.0',
    ])
    expectSame('Go', 'v2.0.0+incompatible', 'v2.0.0')
    expectSame('Go', 'v0.3.3', '0.3.3')
  })

  it('orders PyPI versions by PEP 440 (the packaging project’s ordering list)', () => {
    const versions = [
      '1.0.dev456',
      '1.0a1',
      '1.0a2.dev456',
      '1.0a12.dev456',
      '1.0a12',
      '1.0b1.dev456',
      '1.0b2',
      '1.0b2.post345.dev456',
      '1.0b2.post345',
      '1.0c1.dev456',
      '1.0c1',
      '1.0rc2',
      '1.0c3',
      '1.0',
      '1.0.post456.dev34',
      '1.0.post456',
      '1.1.dev1',
      '1.2+123abc',
      '1.2+123abc456',
      '1.2+abc',
      '1.2+abc123',
      '1.2+abc123def',
      '1.2+1234.abc',
      '1.2+123456',
      '1.2.r32+123456',
      '1.2.rev33+123456',
      '2.3.0',
      '2.30.0',
      '2.31.0',
      '1!1.0',
    ]
    expectAscending('PyPI', versions)
    expectSame('PyPI', '2.31', '2.31.0')
    expectSame('PyPI', '1.0-1', '1.0.post1')
    // The cached key must order exactly as the library's own compare does.
    for (const a of versions) {
      for (const b of versions)
        expect(Math.sign(compareVersions('PyPI', a, b)), `${a} vs ${b}`).toBe(Math.sign(pep440.compare(a, b)))
    }
  })

  it('orders RubyGems versions as Gem::Version does', () => {
    const versions = [
      '0.9',
      '1.0.a',
      '1.0.a.1',
      '1.0.a9',
      '1.0.a10',
      '1.0.b1',
      '1.0.rc1',
      '1.0',
      '1.0.1',
      '1.12.5',
      '1.13.4',
      '1.13.10',
      '2.0.0.pre',
    ]
    expectAscending('RubyGems', versions.slice(0, -1))
    expectSame('RubyGems', '1.0', '1.0.0')
    expectSame('RubyGems', '1.0', '1')
    for (const a of versions) {
      for (const b of versions) {
        expect(Math.sign(compareVersions('RubyGems', a, b)), `${a} vs ${b}`).toBe(
          Math.sign(GemVersion.create(a)?.compare(GemVersion.create(b)) ?? Number.NaN),
        )
      }
    }
  })

  it('orders Debian versions as dpkg does', () => {
    expectAscending('Debian', [
      '1.0~~',
      '1.0~',
      '1.0~rc1',
      '1.0',
      '1.0-1',
      '1.0-1.1',
      '1.0-2',
      // Letters sort before every other character: a < + < .
      '1.0a',
      '1.0+b1',
      '1.0.1',
      '3.0.9-1',
      '3.0.11-1~deb12u1',
      '3.0.11-1~deb12u2',
      '3.0.11-1',
      '1:0.9',
    ])
    expectSame('Debian', '0:1.0', '1.0')
    // dpkg compares digit runs as numbers: leading zeros carry no meaning.
    expectSame('Debian', '1.00', '1.0')
    expectSame('Debian', '1.01', '1.1')
    expectAscending('Debian', ['2.3', '2.30'])
  })

  it('orders Maven and Alpine versions by their own rules', () => {
    expectAscending('Maven', ['2.0-beta9', '2.0', '2.3.1', '2.4', '2.12.2', '2.13.0', '2.15.0', '2.16.0'])
    expectAscending('Alpine', ['3.1.1-r2', '3.1.1-r3', '3.1.2-r0', '3.1.4_rc1-r0', '3.1.4-r0'])
  })

  it('sorts unreadable versions first and keeps the order total', () => {
    expect(compareVersions('npm', 'not-a-version', '1.0.0')).toBeLessThan(0)
    expect(compareVersions('npm', '1.0.0', 'not-a-version')).toBeGreaterThan(0)
    expect(compareVersions('npm', 'abc', 'abd')).toBeLessThan(0)
    expect(compareVersions('Debian', '!!', '1.0')).toBeLessThan(0)
    expect(compareVersions('Alpine', '1.0-1', '1.0-r1')).toBeLessThan(0)
    const sorted = ['2.0.0', 'latest', '1.0.0', 'next'].sort((a, b) => compareVersions('npm', a, b))
    expect(sorted).toEqual(['latest', 'next', '1.0.0', '2.0.0'])
  })
})
