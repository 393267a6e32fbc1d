import { Avatar, AppShell as Frame, Group, Menu, NavLink, Text, UnstyledButton } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { Link, Outlet, useRouter, useRouterState } from '@tanstack/react-router'
import { BRAND_NAME } from '@trove/contracts/messages'
import { useEffect } from 'react'
import { currentUserQuery, useCurrentUser } from '../features/auth/api/currentUser'
import { trackIdleness } from './idleTracker'

const NAV = [
  { to: '/overview', label: 'Overview' },
  { to: '/packages', label: 'Packages' },
  { to: '/integrations', label: 'Integrations' },
] as const

/** The application frame: top bar with the user menu, the application sidebar, the screen. */
export function AppShell() {
  const user = useCurrentUser().data
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const queryClient = useQueryClient()
  const router = useRouter()
  // Back from being idle: is the session still alive? If not, the guards send the user to sign in.
  useEffect(
    () =>
      trackIdleness(() => {
        void queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey }).then(() => router.invalidate())
      }),
    [queryClient, router],
  )
  return (
    <Frame header={{ height: 52 }} navbar={{ width: 220, breakpoint: 'sm' }} padding="lg">
      <Frame.Header bg="dark.7" c="white">
        <Group h="100%" px="md" justify="space-between">
          <Text component={Link} to="/" fw={700} size="lg" c="white" td="none">
            {BRAND_NAME}
          </Text>
          {user && !user.anonymous && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <UnstyledButton aria-label="User menu" c="white">
                  <Group gap="xs">
                    <Avatar size={28} radius="xl" color="green" variant="filled">
                      {user.name.slice(0, 1).toUpperCase()}
                    </Avatar>
                    <Text size="sm">{user.name}</Text>
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component={Link} to="/user_profile">
                  Edit Profile
                </Menu.Item>
                <Menu.Item component={Link} to="/logout" color="red">
                  Logout
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Frame.Header>
      <Frame.Navbar p="xs" aria-label="Application">
        {NAV.map((item) => (
          <NavLink key={item.to} component={Link} to={item.to} label={item.label} active={pathname.startsWith(item.to)} />
        ))}
      </Frame.Navbar>
      <Frame.Main bg="gray.0">
        <Outlet />
      </Frame.Main>
    </Frame>
  )
}
