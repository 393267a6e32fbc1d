import { Box, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core'
import { type GuideSnippet, type GuideTarget, integrationGuide } from '@trove/contracts/integrationGuides'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import type { CatalogueItem, ConfigureAction } from './catalogueTypes'
import { NEW_TAB } from './IntegrationCard'
import { IntegrationIcon } from './IntegrationIcon'

function Snippet({ snippet }: { snippet: GuideSnippet }) {
  return (
    <Stack gap={4} mt={6} style={{ minWidth: 0 }}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" c="dimmed" ff="monospace">
          {snippet.file ?? 'shell'}
        </Text>
        <CopyButton value={snippet.text}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy} aria-label={`Copy ${snippet.file ?? 'commands'}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {/* A snippet wider than the dialog scrolls: focusable, so the keyboard scrolls it too. */}
      <Code block tabIndex={0} style={{ whiteSpace: 'pre', overflowX: 'auto', maxWidth: '100%' }}>
        {snippet.text}
      </Code>
    </Stack>
  )
}

/**
 * An administrator's dialog for an item with a configure action: what the integration does, the
 * exact steps and snippets for this instance (`target`: its URL and the user), then Learn More, or
 * Set Up and close.
 */
export function SetUpDialog({
  item,
  target,
  onClose,
  onSetUp,
}: {
  item: CatalogueItem | null
  target: GuideTarget
  onClose: () => void
  onSetUp: (action: ConfigureAction, item: CatalogueItem) => void
}) {
  const guide = item ? integrationGuide(item.id, item.label, target) : undefined
  return (
    <Modal
      opened={item !== null}
      onClose={onClose}
      title={item?.label}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {item && (
        <Stack gap="md">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <Text component="span" c="var(--mantine-primary-color-filled)" style={{ display: 'flex', flexShrink: 0 }}>
              <IntegrationIcon glyph={item.icon} scale={item.iconScale ?? Limits.integrationDefaultIconScale} size={40} />
            </Text>
            {guide && <Text>{guide.does}</Text>}
          </Group>
          {guide && (
            <Box component="ol" aria-label="Steps" m={0} pl="lg" style={{ display: 'grid', gap: 'var(--mantine-spacing-sm)' }}>
              {guide.steps.map((step) => (
                <Box component="li" key={step.text} style={{ minWidth: 0 }}>
                  <Text size="sm">{step.text}</Text>
                  {step.snippet && <Snippet snippet={step.snippet} />}
                </Box>
              ))}
            </Box>
          )}
          <Group justify="flex-end" w="100%">
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
