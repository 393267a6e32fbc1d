import { Badge, Text } from '@mantine/core'
import { BuildTexts } from '@trove/contracts/builds'

const COLORS: Record<string, string> = {
  released: 'green',
  passed: 'green',
  success: 'green',
  staged: 'blue',
  failed: 'red',
  rolledback: 'orange',
}

/** A run's status (its promotion status, or the one it was published with); a dash without one. */
export function StatusBadge({ status }: { status: string | null }) {
  if (!status)
    return (
      <Text span c="dimmed">
        {BuildTexts.noStatus}
      </Text>
    )
  const color = COLORS[status.toLowerCase().replace(/[^a-z]/g, '')] ?? 'gray'
  // Dot badges: the colour is the dot's; the text keeps the body colour, which meets WCAG contrast
  // (the light and filled variants' text did not, in these colours).
  return (
    <Badge variant="dot" color={color} style={{ overflow: 'visible' }}>
      {status}
    </Badge>
  )
}
