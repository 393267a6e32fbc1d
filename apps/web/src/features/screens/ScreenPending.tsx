import { Text } from '@mantine/core'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { PageHeader } from '../../ui/PageHeader'

/**
 * The frame of a registered screen whose content is not part of this version of Trove: the route,
 * its name and title exist so links and guards work; the page says plainly that it is empty.
 */
export function ScreenPending({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} breadcrumbs={[title]} />
      <Text c="dimmed">{ScreenMessages.screenNotAvailable}</Text>
    </>
  )
}
