import { Anchor, Button, Card, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { PageHeader } from '../../ui/PageHeader'
import { FREE_TRIAL_URL, type Teaser } from './teasers'

/** A teaser (§2.3, §2.5): what a module does, with a Learn more link and an invitation to try it. */
export function TeaserPage({ teaser }: { teaser: Teaser }) {
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
          <Text fw={600} mb="xs">
            Start a free trial to try {teaser.label}.
          </Text>
          <Button component="a" href={FREE_TRIAL_URL} target="_blank" rel="noopener noreferrer">
            Start a free trial
          </Button>
        </Paper>
      </Stack>
    </>
  )
}
