import { Badge, Group, Stack, Text } from '@mantine/core'
import type { ActivityItem, Dashboard } from '@trove/contracts/dashboard'
import { ChartCard, Empty } from './ChartCard'
import { AnchorLink, packageIdOf, treePathOf } from './links'

const KIND: Record<ActivityItem['kind'], { label: string; color: string }> = {
  publish: { label: 'Published', color: 'teal' },
  cache: { label: 'Cached', color: 'cyan' },
  delete: { label: 'Deleted', color: 'red' },
  signin: { label: 'Signed in', color: 'blue' },
  access: { label: 'Access', color: 'grape' },
}

/** An outlined badge's text in the darkest shade on white (the default teal and cyan are too pale to read), a light one on dark. */
const readableOn = (color: string) => ({
  color: `light-dark(var(--mantine-color-${color}-9), var(--mantine-color-${color}-3))`,
})

const when = (at: number) =>
  new Date(at).toLocaleString('en', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false })

function What({ item, admin }: { item: ActivityItem; admin: boolean }) {
  if (item.kind === 'access')
    return admin ? (
      <AnchorLink to="/admin/management/audit" size="sm">
        {item.action} {item.target}
      </AnchorLink>
    ) : (
      <Text size="sm">{item.action}</Text>
    )
  if (item.kind === 'signin')
    return admin && item.actor ? (
      <AnchorLink to="/admin/management/users/$name" params={{ name: item.actor }} size="sm">
        {item.actor}
      </AnchorLink>
    ) : (
      <Text size="sm">{item.actor}</Text>
    )
  const name = `${item.name ?? ''} ${item.version ?? ''}`.trim()
  if (item.kind === 'delete' && item.repoKey)
    return (
      <Text size="sm" span>
        {name} from{' '}
        <AnchorLink to="/artifacts/browse/$" params={{ _splat: treePathOf(item.repoKey) }} size="sm">
          {item.repoKey}
        </AnchorLink>
      </Text>
    )
  return item.packageType && item.name ? (
    <Text size="sm" span>
      <AnchorLink
        to="/packages/{-$packageId}/{-$versionId}"
        params={{ packageId: packageIdOf(item.packageType, item.name), versionId: item.version ?? undefined }}
        size="sm"
      >
        {name}
      </AnchorLink>
      {item.repoKey && (
        <Text size="sm" c="dimmed" span>
          {' '}
          in {item.repoKey}
        </Text>
      )}
    </Text>
  ) : (
    <Text size="sm">{name}</Text>
  )
}

/** Publishes, deletes, sign-ins and (for administrators) access changes, newest first. */
export function ActivityCard({ data }: { data: Dashboard }) {
  const admin = data.scope === 'instance'
  return (
    <ChartCard title="Recent activity" action={admin ? <AnchorLink to="/admin/management/audit">Audit log</AnchorLink> : null}>
      {data.activity.length === 0 ? (
        <Empty>Nothing happened yet</Empty>
      ) : (
        <Stack gap={8} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Recent activity">
          {data.activity.map((item) => (
            <Group
              key={[item.kind, item.at, item.actor, item.repoKey, item.name, item.version, item.action, item.target].join('|')}
              component="li"
              gap="sm"
              wrap="nowrap"
            >
              <Badge
                variant="outline"
                color={KIND[item.kind].color}
                miw={96}
                style={{ flexShrink: 0, ...readableOn(KIND[item.kind].color) }}
              >
                {KIND[item.kind].label}
              </Badge>
              <div style={{ flex: 1, minWidth: 0 }}>
                <What item={item} admin={admin} />
              </div>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {item.kind !== 'signin' && item.actor ? `${item.actor} · ` : ''}
                {when(item.at)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </ChartCard>
  )
}
