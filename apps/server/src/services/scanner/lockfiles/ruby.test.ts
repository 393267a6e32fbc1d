import { describe, expect, it } from 'vitest'
import { parseManifest } from './index.js'

describe('Gemfile.lock', () => {
  it('reads the specs of the GEM section, platform suffixes dropped', () => {
    const lock = `GIT
  remote: https://github.com/acme/gem.git
  revision: abc
  specs:
    acme-gem (0.1.0)

GEM
  remote: https://rubygems.org/
  specs:
    actionpack (7.0.8)
      rack (~> 2.0, >= 2.2.4)
    nokogiri (1.15.4-x86_64-linux)
      racc (~> 1.4)
    rack (2.2.8)

PLATFORMS
  x86_64-linux

DEPENDENCIES
  actionpack

BUNDLED WITH
   2.4.10
`
    expect(parseManifest('app/Gemfile.lock', Buffer.from(lock))).toEqual([
      { ecosystem: 'RubyGems', name: 'actionpack', version: '7.0.8', path: 'app/Gemfile.lock' },
      { ecosystem: 'RubyGems', name: 'nokogiri', version: '1.15.4', path: 'app/Gemfile.lock' },
      { ecosystem: 'RubyGems', name: 'rack', version: '2.2.8', path: 'app/Gemfile.lock' },
    ])
  })
})
