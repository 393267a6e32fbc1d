import { Card, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import type { CatalogueItem } from './catalogueTypes'
import { IntegrationIcon } from './IntegrationIcon'

/** Opens in a new tab without opener or referrer (packages §2). */
export const NEW_TAB = { target: '_blank', rel: 'noopener noreferrer' } as const

function Face({ item, learnMore }: { item: CatalogueItem; learnMore: boolean }) {
  return (
    <Card withBorder padding="md" h="100%" style={{ position: 'relative' }}>
      {learnMore && (
        <Tooltip label={Messages.learnMore} withinPortal>
          <Text component="span" c="dimmed" style={{ position: 'absolute', top: 8, right: 10 }}>
            <svg
              aria-hidden="true"
              width="14"
              height="14"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            >
              <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
            </svg>
          </Text>
        </Tooltip>
      )}
      <Stack align="center" justify="center" gap="sm" h="100%" py="xs">
        <Text component="span" c="var(--mantine-primary-color-filled)" style={{ display: 'flex' }}>
          <IntegrationIcon glyph={item.icon} scale={item.iconScale ?? Limits.integrationDefaultIconScale} />
        </Text>
        <Text size="sm" fw={600} ta="center">
          {item.label}
        </Text>
      </Stack>
    </Card>
  )
}

/**
 * A card of the grid. An administrator on an item with a configure action opens its dialog;
 * everyone else follows the documentation link in a new tab (packages §2 "Card click").
 */
export function IntegrationCard({
  item,
  admin,
  onOpen,
}: {
  item: CatalogueItem
  admin: boolean
  onOpen: (item: CatalogueItem) => void
}) {
  if (admin && item.configureAction)
    return (
      <UnstyledButton onClick={() => onOpen(item)} w="100%" h="100%" aria-haspopup="dialog">
        <Face item={item} learnMore={false} />
      </UnstyledButton>
    )
  return (
    <a
      href={item.documentationLink}
      {...NEW_TAB}
      style={{ color: 'inherit', textDecoration: 'none', display: 'block', width: '100%', height: '100%' }}
    >
      <Face item={item} learnMore />
    </a>
  )
}
