import { format } from '@trove/contracts/messages'
import type { NodeStatusList } from '@trove/contracts/operations'
import { SERVICE_LABELS } from '@trove/contracts/services'
import { TeaserMessages as M } from '@trove/contracts/teaserMessages'
import { isAdmin, isTour, PATHS, type ShellContext } from './model'
import { serviceStates } from './serviceStates'
import type { Teaser } from './teasers'

/** What a teaser page says under its description, as the instance stands. */
export type TeaserInvitation =
  /** The flavours that are a trial keep the specification's invitation (shell §2.3). */
  | { kind: 'trial'; text: string; button: string }
  /** Trove has no such module: the page says so, and what to use instead when there is something. */
  | { kind: 'notInTrove'; text: string; hint: string | null }
  /** The screen it teases exists here: a link to it (none for a non-admin on an admin screen). */
  | { kind: 'open'; text: string; link: { label: string; path: string } | null }
  /** A module no Online node runs: the exact setting, or who can turn it on. */
  | { kind: 'turnOn'; text: string; setting: string | null }
  /** Still reading the nodes. */
  | { kind: 'loading' }
  /** The module runs, but the installed licence does not include it. */
  | { kind: 'license'; text: string; link: { label: string; path: string } | null }

/** A tour, a cloud trial or an edge trial: the instance is somebody's trial of the product. */
export const isTrialInstance = (c: ShellContext) => isTour(c) || c.cloudTrial || c.flavour === 'edge_trial'

/**
 * The invitation of `teaser` for the person in `c`. `nodes` is the node list (admins only; undefined
 * while it loads or for anyone else): for a module that is off it names the node to restart and the
 * setting, as the topology page does.
 */
export function teaserInvitation(teaser: Teaser, c: ShellContext, nodes: NodeStatusList | undefined): TeaserInvitation {
  const label = teaser.label
  if (isTrialInstance(c)) return { kind: 'trial', text: format(M.trialInvitation, { label }), button: M.trialButton }
  const offer = teaser.offer
  if (offer.kind === 'notInTrove') return { kind: 'notInTrove', text: format(M.notInTrove, { label }), hint: offer.hint ?? null }
  const link = { label: format(M.open, { label }), path: offer.path }
  const canOpen = !offer.path.startsWith('/admin/') || isAdmin(c)
  if (offer.kind === 'inTrove') return { kind: 'open', text: format(M.inTrove, { label }), link: canOpen ? link : null }

  const service = SERVICE_LABELS[offer.service]
  if (!c.services.has(offer.service)) {
    if (!isAdmin(c)) return { kind: 'turnOn', text: format(M.askAdmin, { service }), setting: null }
    if (!nodes) return { kind: 'loading' }
    const state = serviceStates(nodes).find((s) => s.name === offer.service)?.state
    if (state?.kind !== 'off') return { kind: 'loading' } // it came on meanwhile: the services answer follows
    return state.node
      ? { kind: 'turnOn', text: format(M.turnOnAt, { service, label, node: state.node }), setting: state.setting }
      : { kind: 'turnOn', text: format(M.turnOnNewNode, { service, label }), setting: state.setting }
  }
  if (!offer.licenses.includes(c.license)) {
    return {
      kind: 'license',
      text: format(M.needsLicense, { label, license: c.license, licenses: offer.licenses.join(', ') }),
      link: isAdmin(c) ? { label: M.licensesLink, path: PATHS.licenses } : null,
    }
  }
  return { kind: 'open', text: format(M.inTrove, { label }), link: canOpen ? link : null }
}
