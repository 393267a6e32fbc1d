import { Badge, Tooltip } from '@mantine/core'
import type { ConnectionStatus } from '@trove/contracts/gitIntegrations'

// §9 status colour tokens: primary green, warning orange, error red.
const COLORS: Record<ConnectionStatus, string> = { CONNECTED: 'green', CONFIGURED: 'orange', DISCONNECTED: 'red' }

export function StatusBadge({ status, message }: { status: ConnectionStatus; message: string | null }) {
  const badge = (
    <Badge color={COLORS[status]} variant="dot" style={{ overflow: 'visible' }}>
      {status}
    </Badge>
  )
  return message ? <Tooltip label={message}>{badge}</Tooltip> : badge
}
