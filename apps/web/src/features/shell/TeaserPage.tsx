import { Anchor, Button, Card, Code, List, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { PageHeader } from '../../ui/PageHeader'
import type { TeaserInvitation } from './teaserInvitation'
import { FREE_TRIAL_URL, type Teaser } from './teasers'

function Invitation({ invitation }: { invitation: TeaserInvitation }) {
  switch (invitation.kind) {
    case 'loading':
      return <Skeleton height={48} />
    case 'trial':
      return (
        <>
          <Text fw={600} mb="xs">
            {invitation.text}
          </Text>
          <Button component="a" href={FREE_TRIAL_URL} target="_blank" rel="noopener noreferrer">
            {invitation.button}
          </Button>
        </>
      )
    case 'notInTrove':
      return (
        <>
          <Text fw={600}>{invitation.text}</Text>
          {invitation.hint && <Text mt="xs">{invitation.hint}</Text>}
        </>
      )
    case 'turnOn':
      return (
        <>
          <Text fw={600} mb={invitation.setting ? 'xs' : 0}>
            {invitation.text}
          </Text>
          {invitation.setting && <Code block>{invitation.setting}</Code>}
        </>
      )
    case 'open':
    case 'license':
      return (
        <>
          <Text fw={600} mb={invitation.link ? 'xs' : 0}>
            {invitation.text}
          </Text>
          {invitation.link && (
            <Button component={Link} to={invitation.link.path}>
              {invitation.link.label}
            </Button>
          )}
        </>
      )
  }
}

/**
 * A teaser (§2.3, §2.5): what a module does, with a Learn more link; then, on a trial, the
 * invitation to try it, and elsewhere what turns it on here.
 */
export function TeaserPage({ teaser, invitation }: { teaser: Teaser; invitation: TeaserInvitation }) {
  return (
    <>
      <PageHeader title={teaser.label} breadcrumbs={[teaser.label]} />
      <Stack maw={880} gap="lg">
        <Text size="lg">{teaser.description}</Text>
        <Anchor href={teaser.learnMoreUrl} target="_blank" rel="noopener noreferrer">
          Learn more
        </Anchor>
        {teaser.bullets?.map((b) => (
          <div key={b.header}>
            <Title order={2} size="h4" mb="xs">
              {b.header}
            </Title>
            <List spacing={4}>
              {b.content.map((c) => (
                <List.Item key={c}>{c}</List.Item>
              ))}
            </List>
          </div>
        ))}
        {teaser.cards && (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {teaser.cards.map((c) => (
              <Card key={c.label} withBorder radius="md">
                <Text fw={700}>{c.label}</Text>
                <Text size="sm" c="dimmed">
                  {c.description}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        )}
        <Paper withBorder p="lg" radius="md">
          <Invitation invitation={invitation} />
        </Paper>
      </Stack>
    </>
  )
}
