import { Anchor, Card, List, SimpleGrid, Text, Title } from '@mantine/core'
import { Link, Outlet } from '@tanstack/react-router'
import { Microfrontend } from '../../ui/Microfrontend'
import { PageHeader } from '../../ui/PageHeader'

const DEMOS = [
  { to: '/demo/tree', label: 'Tree' },
  { to: '/demo/typescript/greeting', label: 'TypeScript greeting' },
  { to: '/demo/multi-microfrontend', label: 'Several micro-frontends on one page' },
] as const

/** The demo area (§2.1): how micro-frontends mount in the console. */
export function DemoLayout() {
  return (
    <>
      <PageHeader title="Demo" breadcrumbs={['Demo']} />
      <Outlet />
    </>
  )
}

export function DemoTreePage() {
  return (
    <Card withBorder radius="md" padding="lg" component="nav" aria-label="Demos">
      <List spacing="xs">
        {DEMOS.map((d) => (
          <List.Item key={d.to}>
            <Anchor component={Link} to={d.to}>
              {d.label}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Card>
  )
}

export function DemoGreetingPage() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h4" mb="sm">
        TypeScript greeting
      </Title>
      <Microfrontend label="Greeting" path="demo/greeting.js" props={{ name: 'Trove' }} />
    </Card>
  )
}

export function DemoMultiPage() {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      <Card withBorder radius="md" padding="lg">
        <Microfrontend label="Greeting" path="demo/greeting.js" props={{ name: 'first mount' }} />
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Microfrontend label="Counter" path="demo/counter.js" props={{ target: 250 }} />
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Text size="sm" c="dimmed" mb="xs">
          A micro-frontend that is not served, with no local fallback:
        </Text>
        <Microfrontend label="Missing" path="demo/missing.js" />
      </Card>
    </SimpleGrid>
  )
}

/** /template (§2.1): the starting point for a new screen. */
export function TemplatePage() {
  return (
    <>
      <PageHeader title="Template" breadcrumbs={['Template']} />
      <Text>Start a new screen from this one: a page header, then the content.</Text>
    </>
  )
}
