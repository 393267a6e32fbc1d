import { Badge } from '@mantine/core'
import type { Severity } from '@trove/contracts/scanner'

/** One colour per severity (and for the counts' info and skipped), wherever a severity shows. */
export const SEVERITY_COLOURS: Record<Severity | 'info' | 'skipped', string> = {
  critical: 'red',
  high: 'orange',
  medium: 'yellow',
  low: 'blue',
  unknown: 'gray',
  info: 'gray',
  skipped: 'gray',
}

/** A severity as a coloured word; a licence finding has none. */
export function SeverityBadge({ severity }: { severity: Severity | null }) {
  if (!severity)
    return (
      <Badge variant="outline" color="grape">
        licence
      </Badge>
    )
  return (
    <Badge color={SEVERITY_COLOURS[severity]} variant={severity === 'critical' || severity === 'high' ? 'filled' : 'light'}>
      {severity}
    </Badge>
  )
}
