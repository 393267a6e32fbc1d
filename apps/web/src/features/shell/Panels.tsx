import { Anchor, Code, Drawer, List, Stack, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { PageHeader } from '../../ui/PageHeader'
import { setQuickSetup, setSetMeUp, useNavigationState } from './navigationStore'

/** The quick-setup steps, as a panel (§4.3) or as the quick-deploy landing page (§2.6). */
function QuickSetupSteps() {
  const nav = useNavigationState()
  return (
    <Stack>
      <Text size="sm">
        Three steps to a working repository{nav.predefinedPackageType ? ` for ${nav.predefinedPackageType}` : ''}:
      </Text>
      <List type="ordered" spacing="sm">
        <List.Item>
          <Anchor component={Link} to="/admin/repositories/local/new" onClick={() => setQuickSetup(false)}>
            Create a repository
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

export function QuickSetupPanel() {
  const nav = useNavigationState()
  return (
    <Drawer opened={nav.quickSetupVisible} onClose={() => setQuickSetup(false)} position="right" title="Quick Setup" size="md">
      <QuickSetupSteps />
    </Drawer>
  )
}

export function QuickSetupPage() {
  return (
    <>
      <PageHeader title="Quick Setup" breadcrumbs={['Onboarding', 'Quick Setup']} />
      <QuickSetupSteps />
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

export function Panels({ baseUrl }: { baseUrl: string }) {
  return (
    <>
      <QuickSetupPanel />
      <SetMeUpPanel baseUrl={baseUrl} />
    </>
  )
}
