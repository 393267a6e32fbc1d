import { Anchor, Code, Drawer, List, Stack, Text } from '@mantine/core'
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

/** The set-me-up panel (§4.3): how to point a package client at Trove. */
export function SetMeUpPanel({ baseUrl }: { baseUrl: string }) {
  const nav = useNavigationState()
  const repo = nav.setMeUpConfig.target === 'repository' ? nav.setMeUpConfig.repoKey : '<repository>'
  return (
    <Drawer opened={nav.setMeUpVisible} onClose={() => setSetMeUp(false)} position="right" title="Set Me Up" size="lg">
      <Stack>
        <Text size="sm">Point your package clients at this Trove:</Text>
        <Text fw={600} size="sm">
          npm
        </Text>
        <Code block>{`npm config set registry ${baseUrl}/api/npm/${repo}/`}</Code>
        <Text fw={600} size="sm">
          pip
        </Text>
        <Code block>{`pip config set global.index-url ${baseUrl}/api/pypi/${repo}/simple`}</Code>
        <Text fw={600} size="sm">
          Docker
        </Text>
        <Code block>{`docker login ${new URL(baseUrl).host}`}</Code>
      </Stack>
    </Drawer>
  )
}

/** The shell's side panels; `quickSetup` is the quick-setup form the app composes in. */
export function Panels({ baseUrl, quickSetup }: { baseUrl: string; quickSetup?: ReactNode }) {
  return (
    <>
      <QuickSetupPanel>{quickSetup}</QuickSetupPanel>
      <SetMeUpPanel baseUrl={baseUrl} />
    </>
  )
}
