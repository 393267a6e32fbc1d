import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useEffect } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { portalTarget } from './accountPortalRules'
import { useAccountPortal } from './api/accountPortal'

const replaceLocation = (url: string) => window.location.replace(url)

/**
 * /user/my-jfrog-redirect: sends the browser to the account portal an administrator set (a full
 * page load that replaces this entry, so Back returns to where the user was); says so plainly
 * when none is set.
 */
export function AccountPortalRedirectPage({ leave = replaceLocation }: { leave?: (url: string) => void }) {
  const portal = useAccountPortal()
  const target = portalTarget(portal.data?.url)
  useEffect(() => {
    if (target) leave(target)
  }, [target, leave])
  return (
    <>
      <PageHeader title="Account portal" breadcrumbs={['Account portal']} />
      {portal.isPending && <Loader size="sm" aria-label="Loading" />}
      {portal.error && (
        <Alert color="red" role="alert">
          {portal.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {target && (
        <Stack gap="xs" role="status">
          <Text>{ScreenMessages.accountPortalLeaving}</Text>
          <Anchor href={target}>{target}</Anchor>
        </Stack>
      )}
      {portal.data && !target && (
        <Alert color="gray" variant="light" role="status" title="No account portal">
          {ScreenMessages.accountPortalNotSet}
        </Alert>
      )}
    </>
  )
}
