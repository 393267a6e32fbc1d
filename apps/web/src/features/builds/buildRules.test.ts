import type { BuildRunSummary, BuildSummary } from '@trove/contracts/builds'
import { describe, expect, it } from 'vitest'
import { diffPair, filterBuilds, formatDuration, legacyBuildTarget, togglePick } from './buildRules'

const build = (name: string, lastNumber = '1', status: string | null = null): BuildSummary => ({
  name,
  lastNumber,
  lastStarted: '2026-01-01T00:00:00.000Z',
  status,
  runs: 1,
})
const run = (number: string, started: string): BuildRunSummary => ({
  number,
  started,
  agent: null,
  url: null,
  publishedBy: null,
  status: null,
})

describe('filterBuilds', () => {
  const builds = [build('web-app', '12', 'Released'), build('API server', '7'), build('docs')]
  it('keeps builds holding every word, in any case, in name, number or status', () => {
    expect(filterBuilds(builds, 'APP').map((b) => b.name)).toEqual(['web-app'])
    expect(filterBuilds(builds, 'api 7').map((b) => b.name)).toEqual(['API server'])
    expect(filterBuilds(builds, 'released').map((b) => b.name)).toEqual(['web-app'])
    expect(filterBuilds(builds, '  ')).toHaveLength(3)
    expect(filterBuilds(builds, 'nothing')).toEqual([])
  })
})

describe('picking two runs', () => {
  const runs = [run('10', '2026-01-03T00:00:00Z'), run('9', '2026-01-02T00:00:00Z'), run('8', '2026-01-01T00:00:00Z')]
  it('compares the newer run against the older, whatever the order of picking', () => {
    expect(diffPair(runs, ['8', '10'])).toEqual({ number: '10', base: '8' })
    expect(diffPair(runs, ['10', '9'])).toEqual({ number: '10', base: '9' })
    expect(diffPair(runs, ['10'])).toBeNull()
    expect(diffPair(runs, ['10', 'gone'])).toBeNull()
  })
  it('keeps at most two picks, a third replacing the earlier', () => {
    expect(togglePick([], '8')).toEqual(['8'])
    expect(togglePick(['8', '9'], '10')).toEqual(['9', '10'])
    expect(togglePick(['8', '9'], '8')).toEqual(['9'])
  })
})

describe('formatDuration', () => {
  it('reads as people say it', () => {
    expect(formatDuration(850)).toBe('850 ms')
    expect(formatDuration(5_000)).toBe('5 s')
    expect(formatDuration(185_000)).toBe('3 min 5 s')
    expect(formatDuration(120_000)).toBe('2 min')
    expect(formatDuration(3_720_000)).toBe('1 h 2 min')
    expect(formatDuration(null)).toBe('—')
  })
})

describe('legacyBuildTarget', () => {
  it('keeps the build and run of an old link and drops what followed', () => {
    expect(legacyBuildTarget(['app', '42', '1457431406000', 'published'])).toEqual({ name: 'app', number: '42' })
    expect(legacyBuildTarget(['app', '42'])).toEqual({ name: 'app', number: '42' })
    expect(legacyBuildTarget(['app', ''])).toEqual({ name: 'app' })
    expect(legacyBuildTarget([])).toEqual({})
  })
})
