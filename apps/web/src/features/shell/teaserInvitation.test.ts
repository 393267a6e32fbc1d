import type { UserData } from '@trove/contracts/auth'
import type { NodeStatusList } from '@trove/contracts/operations'
import { describe, expect, it } from 'vitest'
import { nodeEntry } from '../../test/nodeEntry'
import { type ShellContext, shellContext } from './model'
import { teaserInvitation } from './teaserInvitation'
import { DEMO_ADMIN_TEASERS, demoAdminTeaser, MODULE_TEASERS } from './teasers'

const uma: UserData = { name: 'uma', realm: 'internal', admin: false, anonymous: false, mfaStatus: 'none' }
const admin: UserData = { ...uma, name: 'admin', admin: true }
const ctx = (user: UserData, services: string[], over: Partial<ShellContext> = {}): ShellContext => ({
  ...shellContext(user, undefined, undefined, { services: new Set(services) }),
  ...over,
})
const nodes: NodeStatusList = [nodeEntry('n1', ['repository'])]
const { securityCompliance, releaseBundles, pipelines, topology } = MODULE_TEASERS

describe('teaserInvitation', () => {
  it('keeps the free-trial invitation on the tour, a cloud trial and an edge trial, and nowhere else', () => {
    const trial = { kind: 'trial', text: 'Start a free trial to try Release Bundles.', button: 'Start a free trial' }
    expect(teaserInvitation(releaseBundles, ctx(admin, [], { flavour: 'tour' }), nodes)).toEqual(trial)
    expect(teaserInvitation(releaseBundles, ctx(admin, [], { cloudTrial: true }), nodes)).toEqual(trial)
    expect(teaserInvitation(releaseBundles, ctx(uma, [], { flavour: 'edge_trial' }), undefined)).toEqual(trial)
    for (const t of [...Object.values(MODULE_TEASERS), ...Object.values(DEMO_ADMIN_TEASERS)]) {
      expect(teaserInvitation(t, ctx(admin, ['repository']), nodes).kind).not.toBe('trial')
      expect(teaserInvitation(t, ctx(uma, ['repository'], { flavour: 'oss' }), undefined).kind).not.toBe('trial')
    }
  })

  it('tells an admin the exact setting that turns a module on, on the node to restart', () => {
    expect(teaserInvitation(securityCompliance, ctx(admin, ['repository']), nodes)).toEqual({
      kind: 'turnOn',
      text: 'No node of this instance runs the Security Scanner module. To turn Security & Compliance on, restart node n1 with',
      setting: 'TROVE_MODULES=repository,scanner',
    })
    // A node that already runs the rest: adding the module runs every module, so the variable goes.
    expect(
      teaserInvitation(releaseBundles, ctx(admin, ['repository', 'scanner']), [nodeEntry('n1', ['repository', 'scanner'])]),
    ).toEqual({
      kind: 'turnOn',
      text: 'No node of this instance runs the Distribution module. To turn Release Bundles on, restart node n1 with',
      setting: 'unset TROVE_MODULES',
    })
    // Nodes not read yet: nothing half-said.
    expect(teaserInvitation(releaseBundles, ctx(admin, ['repository']), undefined)).toEqual({ kind: 'loading' })
  })

  it('tells anyone else that an administrator can turn it on, without the nodes', () => {
    expect(teaserInvitation(securityCompliance, ctx(uma, ['repository']), undefined)).toEqual({
      kind: 'turnOn',
      text: 'No node of this instance runs the Security Scanner module. An administrator can turn it on.',
      setting: null,
    })
  })

  it('names the licence when the module runs but the installed licence leaves it out', () => {
    expect(teaserInvitation(releaseBundles, ctx(admin, ['repository', 'distribution'], { license: 'PRO' }), nodes)).toEqual({
      kind: 'license',
      text: 'Release Bundles runs here, but the installed PRO licence does not include it. Install one that does: OSS, ENTERPRISE_PLUS, TRIAL.',
      link: { label: 'Go to Licenses', path: '/admin/license_management/licenses' },
    })
    expect(teaserInvitation(securityCompliance, ctx(uma, ['scanner'], { license: 'JCR' }), undefined)).toMatchObject({
      kind: 'license',
      link: null,
    })
  })

  it('opens the screen when the module runs and the licence includes it', () => {
    expect(teaserInvitation(releaseBundles, ctx(uma, ['repository', 'distribution']), undefined)).toEqual({
      kind: 'open',
      text: 'Release Bundles is part of Trove, on this instance.',
      link: { label: 'Open Release Bundles', path: '/release-bundles' },
    })
  })

  it('points at a screen every node has; an admin screen only for an admin', () => {
    expect(teaserInvitation(topology, ctx(admin, ['repository']), nodes)).toEqual({
      kind: 'open',
      text: 'Topology is part of Trove, on this instance.',
      link: { label: 'Open Topology', path: '/admin/mission_control/topology' },
    })
    expect(teaserInvitation(topology, ctx(uma, ['repository']), undefined)).toMatchObject({ kind: 'open', link: null })
  })

  it('says what Trove does not have yet, with what to use instead', () => {
    expect(teaserInvitation(pipelines, ctx(admin, ['repository']), nodes)).toEqual({
      kind: 'notInTrove',
      text: 'Pipelines is not part of Trove yet.',
      hint: 'Builds lists the build info your CI publishes with each run.',
    })
    expect(teaserInvitation(demoAdminTeaser('configuration/security/ldap') ?? pipelines, ctx(admin, []), nodes)).toMatchObject({
      kind: 'notInTrove',
      hint: 'Sign users in with OAuth SSO or SAML SSO.',
    })
  })
})
