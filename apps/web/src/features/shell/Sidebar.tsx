import { NavLink, ScrollArea, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { type MenuGroup, type ShellContext, type SidebarName, shownGroups } from './model'

const LABEL: Record<SidebarName, string> = {
  application: 'Application',
  administration: 'Administration',
  project: 'Project Settings',
}

export interface SidebarProps {
  sidebars: SidebarName[]
  active: SidebarName
  groups: MenuGroup[]
  ctx: ShellContext
  pathname: string
  /** Shell §4.1: switching menus goes to that menu's remembered page. */
  onSwitch: (sidebar: SidebarName) => void
}

/** The three sidebars (§4.3): Application, Administration, Project Settings. */
export function Sidebar({ sidebars, active, groups, ctx, pathname, onSwitch }: SidebarProps) {
  const shown = shownGroups(groups, ctx)
  return (
    <Stack gap="xs" h="100%">
      {sidebars.length > 1 && (
        <SegmentedControl
          fullWidth
          size="xs"
          aria-label="Menu"
          data-tour="menus"
          value={active}
          onChange={(v) => onSwitch(v as SidebarName)}
          data={sidebars.map((s) => ({ value: s, label: LABEL[s] }))}
        />
      )}
      <ScrollArea style={{ flex: 1 }} type="auto">
        <nav aria-label={LABEL[active]}>
          {shown.map(({ group, items }) => (
            <div key={group.id}>
              {shown.length > 1 && (
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm" mb={4} px="xs">
                  {group.label}
                </Text>
              )}
              {items.map(({ item, disabled }) =>
                disabled ? (
                  <Tooltip key={item.id} label={disabled} position="right">
                    <NavLink component="button" py={6} label={item.label} disabled aria-disabled="true" />
                  </Tooltip>
                ) : (
                  <NavLink
                    key={item.id}
                    py={6}
                    component={Link}
                    to={item.path}
                    label={item.label}
                    active={pathname === item.path || pathname.startsWith(`${item.path}/`)}
                  />
                ),
              )}
            </div>
          ))}
        </nav>
      </ScrollArea>
    </Stack>
  )
}
