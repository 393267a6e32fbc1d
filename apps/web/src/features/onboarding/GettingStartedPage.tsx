import { Anchor, Group, Paper, Progress, Stack, Text, ThemeIcon } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { GettingStarted } from '@trove/contracts/onboarding'
import { useEffect } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { gettingStartedQuery } from './api/onboarding'

type StepId = GettingStarted['steps'][number]['id']

/** Where each step is done: a path, or an action of the frame (set-me-up opens as a panel). */
export type StepTarget = { path: string } | { action: 'setMeUp' }

export const GETTING_STARTED_TEXT: Record<StepId, { title: string; description: string; link: string; target: StepTarget }> = {
  repository: {
    title: 'Create a repository',
    description: 'Quick setup makes a local, a remote and a virtual repository for each package type you pick.',
    link: 'Quick setup',
    target: { path: '/admin/onboarding/quick-setup' },
  },
  package: {
    title: 'Deploy your first package',
    description: 'Set Me Up gives your client the exact configuration, token included; then publish or push as usual.',
    link: 'Set Me Up',
    target: { action: 'setMeUp' },
  },
  teammate: {
    title: 'Invite a teammate',
    description: 'Add a user, or send an invitation by e-mail.',
    link: 'New user',
    target: { path: '/admin/management/users/new' },
  },
  token: {
    title: 'Create an access token',
    description: 'For CI jobs and scripts: scoped, expiring, revocable.',
    link: 'Your profile',
    target: { path: '/user_profile' },
  },
  mfa: {
    title: 'Turn on multi-factor authentication',
    description: 'An authenticator app, on top of your password.',
    link: 'Your profile',
    target: { path: '/user_profile' },
  },
}

export interface GettingStartedPageProps {
  /** The guided tour's variant (tour_get_started). */
  tour?: boolean
  /** Opens where a step is done. */
  onOpen: (target: StepTarget) => void
  /** Called once the page is shown: it is remembered as seen. */
  onSeen: () => void
}

/**
 * Getting started (shell §4.1's get_started and tour_get_started): a checklist that ticks itself
 * from what exists, each step linking to where it is done. Opening it marks it seen for the user.
 */
export function GettingStartedPage({ tour = false, onOpen, onSeen }: GettingStartedPageProps) {
  const checklist = useQuery({ ...gettingStartedQuery(), refetchOnWindowFocus: true })
  useEffect(() => onSeen(), [onSeen])
  const steps = checklist.data?.steps ?? []
  const done = steps.filter((s) => s.done).length
  return (
    <>
      <PageHeader title="Getting Started" breadcrumbs={[tour ? 'Tour' : 'Onboarding', 'Getting Started']} />
      <Stack maw={760} gap="md">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {tour ? 'Walk through Trove the way a new team does.' : 'From an empty instance to a working package client.'}
          </Text>
          <Text size="sm" fw={500} aria-live="polite">
            {done} of {steps.length} done
          </Text>
        </Group>
        <Progress value={steps.length ? (100 * done) / steps.length : 0} aria-label="Progress" />
        {steps.map((step, i) => {
          const text = GETTING_STARTED_TEXT[step.id]
          return (
            <Paper key={step.id} withBorder p="md" radius="md" data-step={step.id} data-done={step.done}>
              <Group wrap="nowrap" align="flex-start">
                <ThemeIcon radius="xl" variant={step.done ? 'filled' : 'light'} color={step.done ? 'green' : 'gray'} aria-hidden>
                  {step.done ? '✓' : i + 1}
                </ThemeIcon>
                <Stack gap={4} style={{ flex: 1 }}>
                  <Group gap="xs">
                    <Text fw={600}>{text.title}</Text>
                    {step.done && (
                      <Text size="xs" fw={700} tt="uppercase">
                        Done
                      </Text>
                    )}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {text.description}
                  </Text>
                </Stack>
                <Anchor component="button" size="sm" onClick={() => onOpen(text.target)}>
                  {text.link}
                </Anchor>
              </Group>
            </Paper>
          )
        })}
      </Stack>
    </>
  )
}
