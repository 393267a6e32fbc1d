import { describe, expect, it } from 'vitest'
import { visibleVulnerabilities } from '../../ui/VulnerabilityBadges'
import {
  defaultTab,
  digestOf,
  displayFileName,
  installCommand,
  levelOf,
  listsDependencies,
  setMeUpType,
  tabLabel,
  versionTabs,
} from './packageRules'

describe('packages browser rules (packages §2, §3, §5)', () => {
  it('derives the level from the parameters', () => {
    expect(levelOf()).toBe('list')
    expect(levelOf('npm://a')).toBe('package')
    expect(levelOf('npm://a', '1.0.0')).toBe('version')
  })

  it('picks readme for the readme extensions, else docker layers for docker, else builds', () => {
    for (const ext of ['tgz', 'gz', 'zip', 'jar', 'war', 'nupkg', 'crate', 'apk', 'whl', 'egg', 'mod'])
      expect(defaultTab(`a/b/file.${ext}`, 'generic')).toBe('readme')
    expect(defaultTab('lib/a/1.0/manifest.json', 'docker')).toBe('dockerLayers')
    expect(defaultTab('a/b.tar', 'npm')).toBe('builds')
    expect(defaultTab(null, 'npm')).toBe('builds')
  })

  it('has the six tabs, docker layers only for docker; the legacy view has three', () => {
    expect(versionTabs('npm', false)).toEqual(['readme', 'builds', 'location', 'xrayData', 'releases'])
    expect(versionTabs('docker', false)).toContain('dockerLayers')
    expect(versionTabs('docker', true)).toEqual(['readme', 'builds', 'dockerLayers'])
    expect(versionTabs('npm', true)).toEqual(['readme', 'builds'])
    expect(tabLabel('xrayData', true)).toBe('Xray Data')
    expect(tabLabel('xrayData', false)).toBe('Security')
    expect(tabLabel('dockerLayers', false)).toBe('Docker Layers')
  })

  it('lists dependencies under the readme for the formats that record them', () => {
    for (const type of ['npm', 'pypi', 'maven', 'go', 'helm', 'gems', 'cargo', 'nuget', 'debian', 'composer'])
      expect(listsDependencies(type)).toBe(true)
    for (const type of ['docker', 'generic']) expect(listsDependencies(type)).toBe(false)
  })

  it('drops vulnerability entries with zero', () => {
    expect(visibleVulnerabilities({ critical: 0, high: 2, medium: 0, low: 1, info: 0, unknown: 0, skipped: 0 })).toEqual([
      { severity: 'high', count: 2 },
      { severity: 'low', count: 1 },
    ])
    expect(visibleVulnerabilities(null)).toEqual([])
  })

  it('takes the digest from the lead file, else from the manifest.json file', () => {
    expect(digestOf([{ name: 'a.tgz', lead: true, sha256: 'aa' }])).toBe('aa')
    expect(
      digestOf([
        { name: 'sha256__x', lead: false, sha256: 'bb' },
        { name: 'manifest.json', lead: false, sha256: 'cc' },
      ]),
    ).toBe('cc')
    expect(digestOf([])).toBeNull()
  })

  it('reads the set-me-up type from the id and shows go .mod as .zip', () => {
    expect(setMeUpType('npm://@scope/a')).toBe('npm')
    expect(setMeUpType('nonsense')).toBeNull()
    expect(displayFileName('v1.2.0.mod', 'go')).toBe('v1.2.0.zip')
    expect(displayFileName('v1.2.0.mod', 'generic')).toBe('v1.2.0.mod')
  })

  it('writes install commands with and without a version', () => {
    expect(installCommand({ name: 'left-pad', packageType: 'npm' })).toBe('npm i left-pad')
    expect(installCommand({ name: 'left-pad', packageType: 'npm' }, '1.3.0')).toBe('npm i left-pad@1.3.0')
    expect(installCommand({ name: 'x', packageType: 'unknowntype' })).toBeNull()
    expect(installCommand({ name: 'hello', packageType: 'docker' }, '1.0', 'docker-local', 'trove.example')).toBe(
      'docker pull trove.example/docker-local/hello:1.0',
    )
    // The package level: the latest version from its repository; without a repository, no command (it would pull from Docker Hub).
    expect(
      installCommand({ name: 'hello', packageType: 'docker', latestVersion: '2.1' }, undefined, 'docker-local', 'trove.example'),
    ).toBe('docker pull trove.example/docker-local/hello:2.1')
    expect(
      installCommand({ name: 'hello', packageType: 'docker', latestVersion: '2.1' }, undefined, undefined, 'trove.example'),
    ).toBeNull()
  })
})
