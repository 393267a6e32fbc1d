import { Anchor, Card, Highlight, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { ADMINISTRATION_MENU, matchesQuery, type ShellContext, shownGroups } from './model'

/**
 * Shell §2.2 admin.artifactory: the admin links as cards by group, with a search box that
 * highlights matching items; disabled items explain why in a tooltip; a group whose items are all
 * hidden or disabled is left out.
 */
export function AdminMenuPage({ ctx }: { ctx: ShellContext }) {
  const [query, setQuery] = useState('')
  const groups = shownGroups(ADMINISTRATION_MENU, ctx)
  const filtered = groups
    .map((g) => ({ ...g, items: g.items.filter((i) => matchesQuery(i.item, g.group, query)) }))
    .filter((g) => g.items.length > 0)
  return (
    <>
      <PageHeader title="Administration" breadcrumbs={['Administration']} />
      <TextInput
        aria-label="Search administration"
        placeholder="Search administration"
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        maw={420}
        mb="lg"
        autoFocus
      />
      {filtered.length === 0 && <Text c="dimmed">No administration page matches “{query}”.</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {filtered.map(({ group, items }) => (
          <Card
            key={group.id}
            withBorder
            radius="md"
            padding="lg"
            component="section"
            aria-labelledby={`admin-group-${group.id}`}
          >
            <Title order={2} size="h4" mb="sm" id={`admin-group-${group.id}`}>
              {group.label}
            </Title>
            <Stack gap={6}>
              {items.map(({ item, disabled }) =>
                disabled ? (
                  <Tooltip key={item.id} label={disabled} position="right">
                    <Text c="dimmed" size="sm" aria-disabled="true" tabIndex={0} style={{ cursor: 'not-allowed' }}>
                      <Highlight component="span" highlight={query.trim()} size="sm" c="dimmed">
                        {item.label}
                      </Highlight>
                    </Text>
                  </Tooltip>
                ) : (
                  <Anchor key={item.id} component={Link} to={item.path} size="sm">
                    <Highlight component="span" highlight={query.trim()} size="sm" inherit>
                      {item.label}
                    </Highlight>
                  </Anchor>
                ),
              )}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </>
  )
}
