import type { NodeStatusList } from '@trove/contracts/operations'
import { describe, expect, it } from 'vitest'
import { nodeEntry } from '../../test/nodeEntry'
import { serviceStates } from './serviceStates'

const states = (nodes: NodeStatusList) => Object.fromEntries(serviceStates(nodes).map((s) => [s.name, s.state]))

describe('serviceStates', () => {
  it('gives a module no node runs the setting that adds it to what the node runs', () => {
    const s = states([nodeEntry('a', ['repository'])])
    expect(s.repository).toEqual({ kind: 'running', nodes: ['a'] })
    expect(s.scanner).toEqual({ kind: 'off', node: 'a', setting: 'TROVE_MODULES=repository,scanner', offline: [] })
    expect(s.distribution).toEqual({ kind: 'off', node: 'a', setting: 'TROVE_MODULES=repository,distribution', offline: [] })
    expect(s.pipelines).toEqual({ kind: 'notInTrove', offline: [] })
    expect(Object.keys(s)).toEqual([
      'repository',
      'scanner',
      'distribution',
      'mission-control',
      'insight',
      'pipelines',
      'tracker',
    ])
  })

  it('unsets TROVE_MODULES when the module is the last one the node lacks', () => {
    expect(states([nodeEntry('a', ['repository', 'scanner'])]).distribution).toMatchObject({ setting: 'unset TROVE_MODULES' })
  })

  it('counts Online nodes only, names the offline ones set up for it, and picks an Online node to change', () => {
    const s = states([nodeEntry('a', ['repository', 'scanner'], 'Offline'), nodeEntry('b', ['repository'])])
    expect(s.scanner).toEqual({ kind: 'off', node: 'b', setting: 'TROVE_MODULES=repository,scanner', offline: ['a'] })
    expect(s.repository).toEqual({ kind: 'running', nodes: ['b'] })
  })

  it('without any node, says which setting a new node needs', () => {
    expect(states([]).scanner).toEqual({ kind: 'off', node: null, setting: 'TROVE_MODULES=scanner', offline: [] })
  })
})
