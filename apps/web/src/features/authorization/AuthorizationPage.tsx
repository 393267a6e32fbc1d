import { Alert, Badge, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useDeferredValue, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { useMyProjects, useMyRepositories } from './api/myPermissions'
import { actionMarks, actionsSummary, capabilityLabel, emptyRepositoriesText, roleLabel } from './authorizationRules'

const ACTION_COLUMNS = actionMarks([])

/** /authorization: what the signed-in user may do, by repository and by project. */
export function AuthorizationPage() {
  const repositories = useMyRepositories({ page: 1 })
  return (
    <>
      <PageHeader title="Authorization" breadcrumbs={['Authorization']}>
        <Text c="dimmed" size="sm">
          What you may do, from the permissions, groups and project roles you hold.
        </Text>
      </PageHeader>
      {repositories.data?.admin && (
        <Alert color="violet" variant="light" mb="lg" role="status">
          {ScreenMessages.adminHoldsEverything}
        </Alert>
      )}
      <Stack gap="xl">
        <RepositoriesSection />
        <ProjectsSection />
      </Stack>
    </>
  )
}

function RepositoriesSection() {
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const deferred = useDeferredValue(search)
  const repositories = useMyRepositories({ search: deferred.trim() || undefined, page })
  const data = repositories.data
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1
  return (
    <section aria-labelledby="authorization-repositories">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="authorization-repositories">
          Repositories
        </Title>
        <Group gap="sm">
          <Text size="sm" c="dimmed">
            {data ? `${data.total} ${data.total === 1 ? 'repository' : 'repositories'}` : ''}
          </Text>
          <TextInput
            aria-label="Filter repositories"
            placeholder="Filter by name"
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value)
              setPage(1)
            }}
            w={260}
          />
        </Group>
      </Group>
      {repositories.error && (
        <Alert color="red" role="alert" mb="sm">
          {repositories.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder aria-label="Repository permissions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Repository</Table.Th>
              <Table.Th>Type</Table.Th>
              {ACTION_COLUMNS.map((c) => (
                <Table.Th key={c.action} ta="center">
                  {c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.items.map((repo) => (
              <Table.Tr key={repo.repoKey}>
                <Table.Td fw={600}>{repo.repoKey}</Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {repo.rclass} · {repo.packageType}
                  </Text>
                </Table.Td>
                {actionMarks(repo.actions).map((m) => (
                  <Table.Td key={m.action} ta="center" aria-label={`${m.label}: ${m.held ? 'yes' : 'no'}`}>
                    {m.held ? (
                      <Text span c="trove" fw={700} aria-hidden>
                        ✓
                      </Text>
                    ) : (
                      <Text span c="dimmed" aria-hidden>
                        –
                      </Text>
                    )}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data && data.items.length === 0 && (
        <Text c="dimmed" mt="sm">
          {emptyRepositoriesText(deferred)}
        </Text>
      )}
      {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} aria-label="Repository pages" />}
    </section>
  )
}

function ProjectsSection() {
  const projects = useMyProjects()
  const data = projects.data
  return (
    <section aria-labelledby="authorization-projects">
      <Title order={2} size="h4" id="authorization-projects" mb="sm">
        Projects
      </Title>
      {projects.error && (
        <Alert color="red" role="alert" mb="sm">
          {projects.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder aria-label="Project permissions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Project</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th>On the project's repositories</Table.Th>
              <Table.Th>Capabilities</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.items.map((p) => (
              <Table.Tr key={p.key}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {p.displayName}
                  </Text>
                  <Text c="dimmed" size="xs">
                    {p.key}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {p.roles.length === 0 && data.admin ? (
                      <Badge color="violet.9">Administrator</Badge>
                    ) : (
                      p.roles.map((r) => (
                        <Badge key={`${r.role}-${r.via}-${r.group ?? ''}`} variant="light" color="gray" tt="none">
                          {roleLabel(r)}
                        </Badge>
                      ))
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{actionsSummary(p.actions)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{p.capabilities.map(capabilityLabel).join(', ') || 'None'}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data && data.items.length === 0 && (
        <Text c="dimmed" mt="sm">
          {ScreenMessages.noProjectMemberships}
        </Text>
      )}
    </section>
  )
}
