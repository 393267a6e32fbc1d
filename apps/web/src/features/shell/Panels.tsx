import { Anchor, Drawer, List, Stack, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { setQuickSetup, setSetMeUp, useNavigationState } from './navigationStore'

/** The steps after the repositories exist: a client pointed at them, the team invited. */
export function QuickSetupSteps() {
  return (
    <Stack>
      <Text size="sm" fw={500}>
        Next steps
      </Text>
      <List type="ordered" spacing="sm">
        <List.Item>
          <Anchor component={Link} to="/admin/repositories/local/new" onClick={() => setQuickSetup(false)}>
            Create a repository of your own
          </Anchor>
        </List.Item>
        <List.Item>
          <Anchor
            component="button"
            onClick={() => {
              setQuickSetup(false)
              setSetMeUp(true)
            }}
          >
            Point your package client at it (Set Me Up)
          </Anchor>
        </List.Item>
        <List.Item>
          <Anchor component={Link} to="/admin/management/users/new" onClick={() => setQuickSetup(false)}>
            Invite your team
          </Anchor>
        </List.Item>
      </List>
    </Stack>
  )
}

/** Quick setup as a panel (§4.3); `children` is the form the app composes in. */
export function QuickSetupPanel({ children }: { children?: ReactNode }) {
  const nav = useNavigationState()
  return (
    <Drawer opened={nav.quickSetupVisible} onClose={() => setQuickSetup(false)} position="right" title="Quick Setup" size="md">
      <Stack gap="xl">
        {children}
        <QuickSetupSteps />
      </Stack>
    </Drawer>
  )
}

/** Quick setup as the quick-deploy landing page (§2.6). */
export function QuickSetupPage({ children }: { children?: ReactNode }) {
  return (
    <>
      <PageHeader title="Quick Setup" breadcrumbs={['Onboarding', 'Quick Setup']} />
      <Stack gap="xl" maw={720}>
        {children}
        <QuickSetupSteps />
      </Stack>
    </>
  )
}

/** The set-me-up panel (§4.3); `children` is the set-me-up content the app composes in. */
export function SetMeUpPanel({ children }: { children?: ReactNode }) {
  const nav = useNavigationState()
  return (
    <Drawer opened={nav.setMeUpVisible} onClose={() => setSetMeUp(false)} position="right" title="Set Me Up" size="xl">
      {children}
    </Drawer>
  )
}

/** The shell's side panels; the app composes in the quick-setup form and the set-me-up content. */
export function Panels({ quickSetup, setMeUp }: { quickSetup?: ReactNode; setMeUp?: ReactNode }) {
  return (
    <>
      <QuickSetupPanel>{quickSetup}</QuickSetupPanel>
      <SetMeUpPanel>{setMeUp}</SetMeUpPanel>
    </>
  )
}
