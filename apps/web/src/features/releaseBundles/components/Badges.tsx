import { Badge, type BadgeProps } from '@mantine/core'
import type { BundleSummary, DistributionView, HistoryEntry } from '@trove/contracts/distribution'

// Dot badges, as elsewhere in the console: the colour is the dot's and the text keeps the body
// colour, which meets WCAG contrast (the light and filled variants' text does not in these colours).
// Shown whole, never cut to "SIG…" by a narrow table column.
const dot: BadgeProps = {
  variant: 'dot',
  styles: { root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } },
}

const DISTRIBUTION_COLORS: Record<DistributionView['state'], string> = {
  waiting: 'gray',
  running: 'blue',
  completed: 'green',
  failed: 'red',
  deleting: 'orange',
  deleted: 'gray',
}

/** A bundle's state: open (still changing), signed (frozen), distributed (whole on a target). */
export function BundleStateBadge({ state }: { state: BundleSummary['state'] }) {
  return (
    <Badge {...dot} color={state === 'open' ? 'yellow' : state === 'distributed' ? 'blue' : 'green'}>
      {state}
    </Badge>
  )
}

/** A received bundle: its signature and files checked out, or not. */
export function VerifiedBadge({ verified }: { verified: boolean }) {
  return (
    <Badge {...dot} color={verified ? 'green' : 'red'}>
      {verified ? 'verified' : 'not verified'}
    </Badge>
  )
}

/** Where a distribution stands; with the target's name when given. */
export function DistributionBadge({ state, target }: { state: DistributionView['state']; target?: string }) {
  return (
    <Badge {...dot} color={DISTRIBUTION_COLORS[state]} tt="none">
      {target ? `${target}: ${state}` : state}
    </Badge>
  )
}

export function ResultBadge({ result }: { result: HistoryEntry['result'] }) {
  return (
    <Badge {...dot} color={result === 'success' ? 'green' : 'red'}>
      {result}
    </Badge>
  )
}

/** Where a bundle found by checksum lives: made here (source) or received (target). */
export function OriginBadge({ origin }: { origin: BundleSummary['origin'] }) {
  return (
    <Badge {...dot} color={origin === 'source' ? 'blue' : 'grape'}>
      {origin}
    </Badge>
  )
}

/** The signing key new bundles are signed with. */
export function ActiveKeyBadge() {
  return (
    <Badge {...dot} color="green">
      active
    </Badge>
  )
}

/** Text of a failure, red yet readable in both themes (the default red is too light on white). */
export const FAILURE_TEXT = { color: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))' }
