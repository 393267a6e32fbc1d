import { Button, Group, Modal, Stack, Text } from '@mantine/core'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import type { CatalogueItem, ConfigureAction } from './catalogueTypes'
import { NEW_TAB } from './IntegrationCard'
import { IntegrationIcon } from './IntegrationIcon'

/** An administrator's dialog for an item with a configure action: Learn More, or Set Up then close. */
export function SetUpDialog({
  item,
  onClose,
  onSetUp,
}: {
  item: CatalogueItem | null
  onClose: () => void
  onSetUp: (action: ConfigureAction, item: CatalogueItem) => void
}) {
  return (
    <Modal opened={item !== null} onClose={onClose} title={item?.label} centered>
      {item && (
        <Stack align="center" gap="lg">
          <Text component="span" c="var(--mantine-primary-color-filled)" style={{ display: 'flex' }}>
            <IntegrationIcon glyph={item.icon} scale={item.iconScale ?? Limits.integrationDefaultIconScale} size={56} />
          </Text>
          <Group justify="center" w="100%">
            <Button component="a" href={item.documentationLink} {...NEW_TAB} variant="default">
              {Messages.learnMore}
            </Button>
            {item.configureAction && (
              <Button
                onClick={() => {
                  if (item.configureAction) onSetUp(item.configureAction, item)
                  onClose()
                }}
              >
                {Messages.setUp}
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  )
}
