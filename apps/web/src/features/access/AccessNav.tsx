import { Tabs } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { useMyAccess } from './api/myAccess'

const ITEMS = [
  { to: '/admin/management/users', label: 'Users', admin: true },
  { to: '/admin/management/groups', label: 'Groups', admin: true },
  { to: '/admin/management/permissions', label: 'Permissions', admin: true },
  { to: '/admin/management/global_roles', label: 'Global roles', admin: true },
  { to: '/admin/projects/list', label: 'Projects', admin: false },
  { to: '/admin/management/audit', label: 'Audit', admin: true },
] as const

/** The user-management tabs; a project admin sees only what they may open. */
export function AccessNav({ active }: { active: (typeof ITEMS)[number]['label'] }) {
  const me = useMyAccess().data
  const navigate = useNavigate()
  const items = ITEMS.filter((item) => me?.admin || (!item.admin && me?.canAdministerProjects))
  return (
    <Tabs
      value={active}
      onChange={(label) => {
        const item = items.find((i) => i.label === label)
        if (item) void navigate({ to: item.to })
      }}
      mb="md"
      aria-label="User management"
    >
      <Tabs.List>
        {items.map((item) => (
          <Tabs.Tab key={item.label} value={item.label}>
            {item.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  )
}
