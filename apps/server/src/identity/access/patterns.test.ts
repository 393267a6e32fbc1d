import { describe, expect, it } from 'vitest'
import { compilePattern, resourceMatcher } from './patterns.js'

describe('permission target patterns', () => {
  it('match Ant style: ** anything, * within a segment, ? one character', () => {
    expect(compilePattern('**').test('libs-release')).toBe(true)
    expect(compilePattern('libs-*').test('libs-release')).toBe(true)
    expect(compilePattern('libs-*').test('docker-local')).toBe(false)
    expect(compilePattern('team/*').test('team/a/b')).toBe(false)
    expect(compilePattern('team/**').test('team/a/b')).toBe(true)
    expect(compilePattern('a/**/b').test('a/b')).toBe(true)
    expect(compilePattern('npm-?').test('npm-1')).toBe(true)
    expect(compilePattern('npm.local').test('npmXlocal')).toBe(false)
  })

  it('take named resources, then include patterns minus exclude patterns', () => {
    const m = resourceMatcher({ names: ['secret-local'], include: ['*-local'], exclude: ['secret-*', 'tmp-*'] })
    expect(m.matches('libs-local')).toBe(true)
    expect(m.matches('secret-local')).toBe(true)
    expect(m.matches('tmp-local')).toBe(false)
    expect(m.matches('libs-remote')).toBe(false)
  })
})
