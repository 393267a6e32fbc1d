import { Badge } from '@mantine/core'
import type { Severity } from '@trove/contracts/scanner'

const COLORS: Record<Severity, string> = { critical: 'red', high: 'orange', medium: 'yellow', low: 'blue', unknown: 'gray' }

/** A severity as a coloured word; a licence violation has none. */
export function SeverityBadge({ severity }: { severity: Severity | null }) {
  if (!severity)
    return (
      <Badge variant="outline" color="grape">
        licence
      </Badge>
    )
  return (
    <Badge color={COLORS[severity]} variant={severity === 'critical' || severity === 'high' ? 'filled' : 'light'}>
      {severity}
    </Badge>
  )
}
