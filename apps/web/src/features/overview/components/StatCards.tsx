import { Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core'
import { DASHBOARD_DAYS, type Dashboard } from '@trove/contracts/dashboard'
import type { ReactNode } from 'react'
import { formatSize } from '../../../lib/format'
import { AnchorLink } from './links'

export const formatCount = (n: number) => new Intl.NumberFormat('en').format(n)

function Stat({
  label,
  link,
  hint,
  icon,
  color,
}: {
  label: string
  /** The figure, as a link to the screen that lists it */
  link: ReactNode
  hint: string
  icon: string
  color: string
}) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {label}
          </Text>
          <Text fz={28} fw={700} lh={1.2} mt={4}>
            {link}
          </Text>
        </div>
        <ThemeIcon variant="light" color={color} size={38} radius="md" aria-hidden>
          <Text fw={700} size="lg">
            {icon}
          </Text>
        </ThemeIcon>
      </Group>
      <Text size="xs" c="dimmed" mt="sm">
        {hint}
      </Text>
    </Card>
  )
}

/** The headline figures, each a link to the screen that lists what it counts. */
export function StatCards({ data }: { data: Dashboard }) {
  const admin = data.scope === 'instance'
  const { totals } = data
  // An administrator's repository count opens the repositories screen; a user has none, so the tree.
  const repositories = admin ? (
    <AnchorLink to="/admin/repositories" c="inherit">
      {formatCount(totals.repositories)}
    </AnchorLink>
  ) : (
    <AnchorLink to="/artifacts/browse" c="inherit">
      {formatCount(totals.repositories)}
    </AnchorLink>
  )
  const tree = (text: string) => (
    <AnchorLink to="/artifacts/browse" c="inherit">
      {text}
    </AnchorLink>
  )
  const packages = (text: string) => (
    <AnchorLink to="/packages/{-$packageId}/{-$versionId}" params={{}} c="inherit">
      {text}
    </AnchorLink>
  )
  const days = `last ${DASHBOARD_DAYS} days`
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="md" mb="md">
      <Stat
        label="Repositories"
        link={repositories}
        hint={admin ? 'local, remote and virtual' : 'that you can read'}
        icon="▦"
        color="blue"
      />
      <Stat label="Storage used" link={tree(formatSize(totals.bytes))} hint="in the artifact tree" icon="◔" color="violet" />
      <Stat label="Files" link={tree(formatCount(totals.files))} hint="cached files included" icon="❏" color="cyan" />
      <Stat label="Downloads" link={packages(formatCount(totals.downloads))} hint={days} icon="↓" color="teal" />
      <Stat label="Uploads" link={tree(formatCount(totals.uploads))} hint={`files stored, ${days}`} icon="↑" color="orange" />
    </SimpleGrid>
  )
}
