import {
  ActionIcon,
  Avatar,
  Badge,
  Group,
  Menu,
  Select,
  Text,
  Tooltip,
  UnstyledButton,
  useMantineColorScheme,
} from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { UserData } from '@trove/contracts/auth'
import type { ActionItem } from './model'

export type FrameAction = NonNullable<ActionItem['action']>

function ActionMenuItems({ items, onAction }: { items: ActionItem[]; onAction: (a: FrameAction) => void }) {
  return items.map((item) => {
    const badge = item.badge ? (
      <Badge size="xs" variant="light" ml={6}>
        {item.badge}
      </Badge>
    ) : null
    if (item.href) {
      return (
        <Menu.Item key={item.id} component="a" href={item.href} target="_blank" rel="noopener noreferrer" rightSection="↗">
          {item.label}
        </Menu.Item>
      )
    }
    if (item.to) {
      return (
        <Menu.Item key={item.id} component={Link} to={item.to}>
          {item.label}
        </Menu.Item>
      )
    }
    return (
      <Menu.Item
        key={item.id}
        color={item.action === 'logout' ? 'red' : undefined}
        onClick={() => item.action && onAction(item.action)}
      >
        {item.label}
        {badge}
      </Menu.Item>
    )
  })
}

export function HelpMenu({ items, onAction }: { items: ActionItem[]; onAction: (a: FrameAction) => void }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label="Help">
          <ActionIcon variant="subtle" color="gray.0" size="lg" aria-label="Help menu" data-tour="help">
            ?
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <ActionMenuItems items={items} onAction={onAction} />
      </Menu.Dropdown>
    </Menu>
  )
}

export function QuickActionMenu({
  items,
  onAction,
  bubble,
}: {
  items: ActionItem[]
  onAction: (a: FrameAction) => void
  bubble: boolean
}) {
  if (items.length === 0 || !bubble) return null
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label="Quick actions">
          <ActionIcon variant="filled" size="lg" radius="xl" aria-label="Quick actions" data-tour="quick-actions">
            +
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <ActionMenuItems items={items} onAction={onAction} />
      </Menu.Dropdown>
    </Menu>
  )
}

export function UserMenu({ user, items, onAction }: { user: UserData; items: ActionItem[]; onAction: (a: FrameAction) => void }) {
  const { colorScheme, toggleColorScheme } = useMantineColorScheme()
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="User menu" c="white" data-tour="user">
          <Group gap="xs" wrap="nowrap">
            <Avatar size={28} radius="xl" color="trove" variant="filled">
              {user.name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Text size="sm" visibleFrom="sm">
              {user.name}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.admin ? 'Administrator' : 'User'}</Menu.Label>
        <Menu.Item onClick={toggleColorScheme}>{colorScheme === 'dark' ? 'Light theme' : 'Dark theme'}</Menu.Item>
        <Menu.Divider />
        <ActionMenuItems items={items} onAction={onAction} />
      </Menu.Dropdown>
    </Menu>
  )
}

export function ProjectSelector({
  projects,
  value,
  onChange,
}: {
  projects: { key: string; name: string }[]
  value: string | null
  onChange: (key: string | null) => void
}) {
  return (
    <Select
      aria-label="Project"
      size="sm"
      w={180}
      data={[{ value: '', label: 'All projects' }, ...projects.map((p) => ({ value: p.key, label: p.name }))]}
      value={value ?? ''}
      onChange={(v) => onChange(v ? v : null)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  )
}
