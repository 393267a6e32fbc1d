import { ActionIcon, Badge, Box, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import type { GuideTarget } from '@trove/contracts/integrationGuides'
import { Limits } from '@trove/contracts/limits'
import {
  CLOUD_VENDOR_LABELS,
  type CloudVendor,
  INTEGRATION_CATEGORY_LABELS,
  type IntegrationCategory,
  Messages,
} from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useMemo, useState } from 'react'
import { CATALOGUE } from './catalogue'
import type { CatalogueItem, ConfigureAction } from './catalogueTypes'
import { filterCatalogue, usedValues } from './filterCatalogue'
import { IntegrationCard } from './IntegrationCard'
import { IntegrationFilters } from './IntegrationFilters'
import { SetUpDialog } from './SetUpDialog'

export interface IntegrationsPageProps {
  /** Whether the user may set integrations up (packages §6). */
  admin: boolean
  /** Carries out an item's Set Up: the route it names, or its named action. */
  onSetUp: (action: ConfigureAction, item: CatalogueItem) => void
  /** What the set-up guides are written for: this instance's URL and the signed-in user. */
  guideTarget: GuideTarget
  items?: CatalogueItem[]
}

const CATEGORIES = Object.keys(INTEGRATION_CATEGORY_LABELS) as IntegrationCategory[]
const VENDORS = Object.keys(CLOUD_VENDOR_LABELS) as CloudVendor[]

/** /integrations (packages §2 "Integrations catalogue"). */
export function IntegrationsPage({ admin, onSetUp, guideTarget, items = CATALOGUE }: IntegrationsPageProps) {
  const [search, setSearch] = useState('')
  const [debouncedSearch] = useDebouncedValue(search, Limits.integrationFilterDebounceMs)
  const [categories, setCategories] = useState<IntegrationCategory[]>([])
  const [vendors, setVendors] = useState<CloudVendor[]>([])
  const [panelOpen, setPanelOpen] = useState(true)
  const [dialogItem, setDialogItem] = useState<CatalogueItem | null>(null)
  const shown = useMemo(
    () => filterCatalogue(items, { search: debouncedSearch, categories, vendors }),
    [items, debouncedSearch, categories, vendors],
  )
  const usedCategories = useMemo(() => usedValues(CATEGORIES, items, (i) => i.categories), [items])
  const usedVendors = useMemo(() => usedValues(VENDORS, items, (i) => i.vendors), [items])

  return (
    <Card withBorder padding="lg" radius="md">
      <Group justify="space-between" mb="lg" gap="sm">
        <Group gap="xs">
          <Title order={1} size="h3">
            {ScreenMessages.integrationsTitle}
          </Title>
          <Badge variant="light" size="lg" aria-label={`${shown.length} integrations shown`}>
            {shown.length}
          </Badge>
        </Group>
        <Group gap="sm">
          <TextInput
            aria-label={Messages.searchIntegrations}
            placeholder={Messages.searchIntegrations}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={280}
            leftSection={
              <svg
                aria-hidden="true"
                width="14"
                height="14"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.5"
              >
                <circle cx="11" cy="11" r="7" />
                <path d="m20 20-4-4" strokeLinecap="round" />
              </svg>
            }
            rightSection={
              search ? (
                <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Clear search" onClick={() => setSearch('')}>
                  <svg
                    aria-hidden="true"
                    width="12"
                    height="12"
                    viewBox="0 0 24 24"
                    stroke="currentColor"
                    strokeWidth="2.5"
                    strokeLinecap="round"
                  >
                    <path d="M6 6l12 12M18 6 6 18" />
                  </svg>
                </ActionIcon>
              ) : null
            }
          />
          {!panelOpen && (
            <Button variant="default" onClick={() => setPanelOpen(true)}>
              {ScreenMessages.integrationFilters}
            </Button>
          )}
        </Group>
      </Group>
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <Box style={{ flex: 1, minWidth: 0 }}>
          {shown.length === 0 ? (
            <Stack align="center" gap={4} py={60}>
              <Text fw={600}>{Messages.noIntegrationsFound}</Text>
              <Text size="sm" c="dimmed" ta="center">
                {Messages.noIntegrationsHint}
              </Text>
            </Stack>
          ) : (
            <SimpleGrid
              component="ul"
              aria-label={ScreenMessages.integrationsTitle}
              type="container"
              cols={{ base: 1, '320px': 2, '520px': 3, '740px': 4, '960px': 5 }}
              spacing="md"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {shown.map((item) => (
                <li key={item.id} style={{ minHeight: 120, display: 'flex' }}>
                  <IntegrationCard item={item} admin={admin} onOpen={setDialogItem} />
                </li>
              ))}
            </SimpleGrid>
          )}
        </Box>
        {panelOpen && (
          <IntegrationFilters
            categories={usedCategories}
            vendors={usedVendors}
            selectedCategories={categories}
            selectedVendors={vendors}
            onCategories={setCategories}
            onVendors={setVendors}
            onClose={() => setPanelOpen(false)}
          />
        )}
      </Group>
      <SetUpDialog item={dialogItem} target={guideTarget} onClose={() => setDialogItem(null)} onSetUp={onSetUp} />
    </Card>
  )
}
