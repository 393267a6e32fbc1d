import { Card, Skeleton, Stack, TextInput, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useEffect, useState } from 'react'
import { notify } from '../../lib/notify'
import { SaveFooter } from '../../ui/SaveFooter'
import { isAcceptablePortalUrl } from './accountPortalRules'
import { useAccountPortal, useSaveAccountPortal } from './api/accountPortal'

/** General Settings' account portal card: where /user/my-jfrog-redirect sends users. */
export function AccountPortalSettings() {
  const portal = useAccountPortal()
  const save = useSaveAccountPortal()
  const [url, setUrl] = useState('')
  useEffect(() => {
    if (portal.data) setUrl(portal.data.url)
  }, [portal.data])
  const error = isAcceptablePortalUrl(url) ? undefined : Messages.invalidUrl
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (error) return
    save.mutate(
      { url: url.trim() },
      { onSuccess: () => notify({ color: 'green', message: 'Account portal saved', autoClose: 3000 }) },
    )
  }
  if (portal.isPending) return <Skeleton h={160} radius="md" />
  return (
    <Card withBorder radius="md" padding="lg" component="form" onSubmit={submit} aria-label="Account portal">
      <Stack>
        <Title order={2} size="h4">
          Account portal
        </Title>
        <TextInput
          label="Account portal URL"
          description="Where users' “my account” link leads (leave empty for none)"
          placeholder="https://accounts.example.org"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={error}
        />
        <SaveFooter error={save.error} pending={save.isPending} label="Save account portal" />
      </Stack>
    </Card>
  )
}
