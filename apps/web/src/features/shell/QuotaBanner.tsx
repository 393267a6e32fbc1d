import { Alert, Anchor } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { useBlockedUsages } from './api/startup'

/** Shell §8: the data-transfer quota banner, driven by /ui/subscription/blockedUsages. */
export function QuotaBanner({ enabled }: { enabled: boolean }) {
  const blocked = useBlockedUsages(enabled).data
  if (!blocked?.dataTransfer) return null
  return (
    <Alert color="orange" variant="light" radius={0} py={6} role="status" aria-label="Data transfer quota">
      {Messages.dataTransferQuota}{' '}
      <Anchor href={blocked.purchaseUrl} target="_blank" rel="noopener noreferrer" fw={700}>
        UPGRADE
      </Anchor>
    </Alert>
  )
}
