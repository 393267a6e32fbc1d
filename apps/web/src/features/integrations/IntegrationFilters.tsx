import { ActionIcon, Checkbox, Collapse, Divider, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core'
import { Limits } from '@trove/contracts/limits'
import {
  CLOUD_VENDOR_LABELS,
  type CloudVendor,
  INTEGRATION_CATEGORY_LABELS,
  type IntegrationCategory,
} from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { type ReactNode, useState } from 'react'

export interface IntegrationFiltersProps {
  categories: IntegrationCategory[]
  vendors: CloudVendor[]
  selectedCategories: IntegrationCategory[]
  selectedVendors: CloudVendor[]
  onCategories: (next: IntegrationCategory[]) => void
  onVendors: (next: CloudVendor[]) => void
  onClose: () => void
}

const toggle = <T,>(list: T[], value: T): T[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value])

function Section({ title, children }: { title: string; children: ReactNode }) {
  const [open, setOpen] = useState(true)
  return (
    <Stack gap="xs">
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        <Group justify="space-between">
          <Text fw={600} size="sm">
            {title}
          </Text>
          <Text size="xs" c="dimmed" aria-hidden="true">
            {open ? '▾' : '▸'}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open}>
        <Stack gap={8} role="group" aria-label={title}>
          {children}
        </Stack>
      </Collapse>
    </Stack>
  )
}

/** The catalogue's side panel (packages §2): 314 px, Categories with 'All', then Cloud Vendor. */
export function IntegrationFilters(props: IntegrationFiltersProps) {
  const { selectedCategories, selectedVendors } = props
  return (
    <Paper
      component="aside"
      aria-label={ScreenMessages.integrationFilters}
      withBorder
      p="md"
      style={{ flexShrink: 0, width: Limits.integrationSideFilterWidthPx }}
    >
      <Group justify="space-between" mb="sm">
        <Text fw={700}>{ScreenMessages.integrationFilters}</Text>
        <ActionIcon variant="subtle" color="gray" aria-label="Close filters" onClick={props.onClose}>
          <svg
            aria-hidden="true"
            width="14"
            height="14"
            viewBox="0 0 24 24"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinecap="round"
          >
            <path d="M6 6l12 12M18 6 6 18" />
          </svg>
        </ActionIcon>
      </Group>
      <Stack gap="md">
        <Section title={ScreenMessages.integrationCategories}>
          <Checkbox
            label={ScreenMessages.integrationFilterAll}
            checked={selectedCategories.length === 0}
            onChange={() => props.onCategories([])}
          />
          {props.categories.map((c) => (
            <Checkbox
              key={c}
              label={INTEGRATION_CATEGORY_LABELS[c]}
              checked={selectedCategories.includes(c)}
              onChange={() => props.onCategories(toggle(selectedCategories, c))}
            />
          ))}
        </Section>
        <Divider />
        <Section title={ScreenMessages.integrationCloudVendor}>
          {props.vendors.map((v) => (
            <Checkbox
              key={v}
              label={CLOUD_VENDOR_LABELS[v]}
              checked={selectedVendors.includes(v)}
              onChange={() => props.onVendors(toggle(selectedVendors, v))}
            />
          ))}
        </Section>
      </Stack>
    </Paper>
  )
}
