import { Limits } from '@trove/contracts/limits'
import type { ServiceNode, ServiceStatus } from '@trove/contracts/operations'
import { describe, expect, it } from 'vitest'
import { creationReducer, initialCreationState, noneCreating } from './bundleCreation'
import { initialLogViewerState, logListSource, logViewerReducer } from './logViewerState'
import {
  hasSeveralMissionControls,
  isHealthy,
  missionControlInstances,
  onlineNodesByService,
  onlineNodesFromNodeList,
  serviceHealth,
} from './serviceStatus'
import { threadDumpError, toWholeNumber } from './threadDump'
import { formatUptime } from './uptime'

const node = (node_id: string, status: 'Online' | 'Offline', service_id = 'repository@c1'): ServiceNode => ({
  node_id,
  service_id,
  status,
  url: '',
  version: '1',
  start_time: 0,
  micro_services: {},
})

describe('uptime', () => {
  it('is a human duration of at most 2 units, or unavailable', () => {
    expect(formatUptime(0)).toBe('0s')
    expect(formatUptime(999)).toBe('0s')
    expect(formatUptime(42_000)).toBe('42s')
    expect(formatUptime(3 * 60_000 + 12_000)).toBe('3m 12s')
    expect(formatUptime(2 * 3_600_000 + 5 * 60_000 + 59_000)).toBe('2h 5m')
    expect(formatUptime(2 * 3_600_000 + 59_000)).toBe('2h')
    expect(formatUptime(3 * 86_400_000 + 4 * 3_600_000 + 60_000)).toBe('3d 4h')
    for (const ms of [1, 61_000, 3_661_000, 90_061_000, 10 ** 12]) {
      expect(formatUptime(ms).split(' ').length).toBeLessThanOrEqual(Limits.uptimeMaxUnits)
    }
    expect(formatUptime(null)).toBe('unavailable')
    expect(formatUptime(undefined)).toBe('unavailable')
    expect(formatUptime(-5)).toBe('unavailable')
    expect(formatUptime(Number.NaN)).toBe('unavailable')
  })
})

describe('service status', () => {
  const status: ServiceStatus = {
    repository: { nodes: [node('a', 'Online'), node('b', 'Offline')] },
    scanner: { nodes: [node('b', 'Offline', 'scanner@c1')] },
    'mission-control': { nodes: [node('a', 'Online', 'mission-control@c1'), node('c', 'Online', 'mission-control@c1')] },
  }

  it('keeps only Online nodes per service and drops services with none (/ha)', () => {
    expect(onlineNodesByService(status)).toEqual({ repository: ['a'], 'mission-control': ['a', 'c'] })
    // the artifact repository first, then the product's order
    expect(
      Object.keys(onlineNodesByService({ insight: status.repository as never, repository: status.repository as never })),
    ).toEqual(['repository', 'insight'])
  })

  it('reads the node status source the same way', () => {
    expect(
      onlineNodesFromNodeList([
        { node_id: 'a', url: '', status: 'Online', services: ['repository', 'insight'], last_heartbeat: 0 },
        { node_id: 'b', url: '', status: 'Offline', services: ['repository'], last_heartbeat: 0 },
      ]),
    ).toEqual({ repository: ['a'], insight: ['a'] })
  })

  it('counts mission control as several instances only with more than one distinct service id', () => {
    expect(missionControlInstances(status)).toEqual(['mission-control@c1'])
    expect(hasSeveralMissionControls(status)).toBe(false)
    const two = {
      'mission-control': { nodes: [node('a', 'Online', 'mission-control@c1'), node('d', 'Online', 'mission-control@c2')] },
    }
    expect(hasSeveralMissionControls(two)).toBe(true)
    expect(hasSeveralMissionControls({})).toBe(false)
  })
})

describe('health items', () => {
  it('are healthy when the state is HEALTHY, counted per service', () => {
    const items = [
      { service_id: 'repository@c1', node_id: 'a', state: 'HEALTHY' as const },
      { service_id: 'repository@c1', node_id: 'b', state: 'UNHEALTHY' as const },
      { service_id: 'scanner@c1', node_id: 'a', state: 'HEALTHY' as const },
    ]
    expect(isHealthy(items[0] as never)).toBe(true)
    expect(isHealthy(items[1] as never)).toBe(false)
    expect(serviceHealth(items, 'repository')).toEqual({ healthy: 1, total: 2 })
    expect(serviceHealth(items, 'scanner')).toEqual({ healthy: 1, total: 1 })
  })
})

describe('log viewer state', () => {
  const lists = { repository: ['a', 'b'], insight: ['b'] }
  const loaded = logViewerReducer(initialLogViewerState, { type: 'lists', byService: lists })

  it('starts on the artifact repository service with its first node', () => {
    expect(loaded).toMatchObject({ selectedProduct: 'repository', selectedNode: 'a', productList: ['repository', 'insight'] })
  })

  it('changes the product only once the service-changed flag is set', () => {
    expect(logViewerReducer(loaded, { type: 'selectProduct', product: 'insight' }).selectedProduct).toBe('repository')
    const flagged = logViewerReducer(loaded, { type: 'serviceChanged' })
    const changed = logViewerReducer(flagged, { type: 'selectProduct', product: 'insight' })
    expect(changed).toMatchObject({ selectedProduct: 'insight', selectedNode: 'b', selectedFile: null, serviceChanged: false })
  })

  it('reset clears the lists, goes back to the artifact repository service and clears node and file', () => {
    const withFile = logViewerReducer(loaded, { type: 'selectFile', file: 'trove.log' })
    expect(logViewerReducer(withFile, { type: 'reset' })).toEqual(initialLogViewerState)
  })

  it('moves off a node that is no longer Online', () => {
    const onB = logViewerReducer(loaded, { type: 'selectNode', node: 'b' })
    expect(logViewerReducer(onB, { type: 'lists', byService: { repository: ['a'] } }).selectedNode).toBe('a')
  })

  it('falls back to the first product that runs somewhere when the default runs nowhere', () => {
    expect(logViewerReducer(initialLogViewerState, { type: 'lists', byService: { scanner: ['x'] } })).toMatchObject({
      selectedProduct: 'scanner',
      selectedNode: 'x',
    })
  })

  it('takes the lists from the node status source for freemium licences, else from service status', () => {
    expect(logListSource(true)).toBe('nodes')
    expect(logListSource(false)).toBe('ha')
  })
})

describe('thread dump fields', () => {
  it('are parsed as whole numbers and checked against the bounds', () => {
    expect(toWholeNumber('3')).toBe(3)
    expect(toWholeNumber(' 7.9 ')).toBe(7)
    expect(toWholeNumber(2.5)).toBe(2)
    expect(toWholeNumber('x')).toBeNaN()
    expect(threadDumpError('count', '10')).toBeNull()
    expect(threadDumpError('count', '11')).toBe('Between 0 and 10')
    expect(threadDumpError('interval', '10000')).toBeNull()
    expect(threadDumpError('interval', '-1')).toBe('Between 0 and 10000')
    expect(threadDumpError('count', 'abc')).toBe('Enter a whole number')
  })
})

describe('bundle creation flow', () => {
  const placeholder = (service: 'repository' | 'distribution') => ({
    id: `p-${service}`,
    name: 'n',
    description: '',
    service,
    node_id: '',
    create_date: 0,
    status: 'in_progress' as const,
    size: null,
    parameters: { configuration: true, system: true, logs: { include: true }, thread_dump: { count: 1, interval: 0 } },
  })

  it('counts per service and is idle only when no service is still creating', () => {
    let s = creationReducer(initialCreationState, { type: 'start', placeholder: placeholder('repository') })
    s = creationReducer(s, { type: 'start', placeholder: placeholder('distribution') })
    expect(s.inProgress).toEqual({ repository: 1, distribution: 1 })
    expect(s.placeholders).toHaveLength(2)
    s = creationReducer(s, { type: 'finish', service: 'repository' })
    expect(noneCreating(s)).toBe(false)
    s = creationReducer(s, { type: 'finish', service: 'distribution' })
    expect(noneCreating(s)).toBe(true)
    expect(creationReducer(s, { type: 'clearPlaceholders' }).placeholders).toEqual([])
  })
})
