import type { PeerList } from '@trove/contracts/operations'
import { describe, expect, it } from 'vitest'
import { formatAgo, peerGrid } from './peers'

const node = (nodeId: string, sees: PeerList['nodes'][number]['sees'], status: 'Online' | 'Offline' = 'Online') => ({
  nodeId,
  url: `http://${nodeId}:8082`,
  version: '1.0.0',
  status,
  startedAt: 0,
  lastHeartbeat: 99_000,
  heartbeatMs: 5000,
  services: ['repository'],
  self: nodeId === 'a',
  sees,
})

describe('the peers grid', () => {
  it('puts each node’s last sighting of every other node in one row, in the nodes’ order', () => {
    const list: PeerList = {
      now: 100_000,
      nodes: [
        node('a', [
          { peerId: 'b', peerLastHeartbeat: 97_000, observedAt: 98_000, status: 'Online' },
          { peerId: 'c', peerLastHeartbeat: 40_000, observedAt: 98_000, status: 'Offline' },
        ]),
        node('b', [{ peerId: 'a', peerLastHeartbeat: 95_000, observedAt: 97_000, status: 'Online' }]),
        node('c', [], 'Offline'),
      ],
    }
    expect(peerGrid(list)).toEqual([
      {
        observer: 'a',
        cells: [
          { peer: 'a', cell: { kind: 'self' } },
          { peer: 'b', cell: { kind: 'seen', status: 'Online', observedAgo: '2s ago', heartbeatAgo: '1s' } },
          { peer: 'c', cell: { kind: 'seen', status: 'Offline', observedAgo: '2s ago', heartbeatAgo: '58s' } },
        ],
      },
      {
        observer: 'b',
        cells: [
          { peer: 'a', cell: { kind: 'seen', status: 'Online', observedAgo: '3s ago', heartbeatAgo: '2s' } },
          { peer: 'b', cell: { kind: 'self' } },
          { peer: 'c', cell: { kind: 'never' } },
        ],
      },
      {
        observer: 'c',
        cells: [
          { peer: 'a', cell: { kind: 'never' } },
          { peer: 'b', cell: { kind: 'never' } },
          { peer: 'c', cell: { kind: 'self' } },
        ],
      },
    ])
  })

  it('says how long ago, never in the future', () => {
    expect(formatAgo(40_000, 100_000)).toBe('1m ago')
    expect(formatAgo(3_725_000, 3_725_000 + 3_725_000)).toBe('1h 2m ago')
    expect(formatAgo(101_000, 100_000)).toBe('0s ago')
  })
})
