import { Alert, Anchor, Button, Code, Group, Loader, SimpleGrid, Stack, Tabs, Text } from '@mantine/core'
import type { BuildRunResponse } from '@trove/contracts/builds'
import { Messages } from '@trove/contracts/messages'
import { type ReactNode, useEffect, useState } from 'react'
import { isNotFound } from '../../lib/api'
import { PageHeader } from '../../ui/PageHeader'
import { useBuildRun } from './api/buildRun'
import { formatDuration } from './buildRules'
import { AnchorLink } from './components/AnchorLink'
import { DeleteRunDialog } from './components/DeleteRunDialog'
import { ModulesView } from './components/ModulesView'
import { PropertiesTable } from './components/PropertiesTable'
import { StatusBadge } from './components/StatusBadge'

export const RUN_TABS = ['modules', 'environment', 'properties', 'json'] as const
export type RunTab = (typeof RUN_TABS)[number]

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  )
}

function Summary({ run }: { run: BuildRunResponse }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="sm">
      <Fact label="Started">{new Date(run.started).toLocaleString()}</Fact>
      <Fact label="Duration">{formatDuration(run.durationMillis)}</Fact>
      <Fact label="Status">
        <StatusBadge status={run.status} />
      </Fact>
      <Fact label="Published by">{run.publishedBy ?? '—'}</Fact>
      <Fact label="Agent">{run.agent ?? '—'}</Fact>
      <Fact label="CI">
        {run.url ? (
          <Anchor href={run.url} target="_blank" rel="noopener noreferrer">
            {run.url}
          </Anchor>
        ) : (
          '—'
        )}
      </Fact>
      <Fact label="VCS revision">{run.vcsRevision ? <Code>{run.vcsRevision}</Code> : '—'}</Fact>
    </SimpleGrid>
  )
}

export interface BuildRunPageProps {
  name: string
  number: string
  tab: RunTab
  onTab: (tab: RunTab) => void
  /** The run is unknown or its build not readable. */
  onNotFound: () => void
  /** The run was deleted from this page. */
  onDeleted: () => void
}

/** /builds/{name}/{number}: one run, with its modules, environment, properties and the document as published. */
export function BuildRunPage({ name, number, tab, onTab, onNotFound, onDeleted }: BuildRunPageProps) {
  const run = useBuildRun(name, number)
  const [deleting, setDeleting] = useState(false)
  const notFound = isNotFound(run.error)
  useEffect(() => {
    if (notFound) onNotFound()
  }, [notFound, onNotFound])
  return (
    <Stack>
      <PageHeader title={`${name} #${number}`}>
        <Group justify="space-between">
          <Group gap="md">
            <AnchorLink to="/builds" size="sm">
              ‹ All builds
            </AnchorLink>
            <AnchorLink to="/builds/$name" params={{ name }} size="sm">
              Runs of {name}
            </AnchorLink>
          </Group>
          {run.data?.canDelete && (
            <Button color="red" variant="light" size="xs" onClick={() => setDeleting(true)}>
              Delete run
            </Button>
          )}
        </Group>
      </PageHeader>
      {run.isPending ? (
        <Loader size="sm" aria-label="Loading the run" />
      ) : run.error ? (
        notFound ? null : (
          <Alert color="red" variant="light" role="alert">
            {run.error.message || Messages.somethingWentWrong}
          </Alert>
        )
      ) : (
        <>
          <Summary run={run.data} />
          <Tabs value={tab} onChange={(v) => v && onTab(v as RunTab)} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="modules">Modules ({run.data.modules.length})</Tabs.Tab>
              <Tabs.Tab value="environment">Environment ({run.data.environment.length})</Tabs.Tab>
              <Tabs.Tab value="properties">Properties ({run.data.properties.length})</Tabs.Tab>
              <Tabs.Tab value="json">Build info JSON</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="modules" pt="md">
              <ModulesView modules={run.data.modules} />
            </Tabs.Panel>
            <Tabs.Panel value="environment" pt="md">
              <PropertiesTable
                label="Environment"
                rows={run.data.environment}
                empty="The run recorded no environment variables."
              />
            </Tabs.Panel>
            <Tabs.Panel value="properties" pt="md">
              <PropertiesTable label="Properties" rows={run.data.properties} empty="The run has no other properties." />
            </Tabs.Panel>
            <Tabs.Panel value="json" pt="md">
              <Code block aria-label="Build info JSON" style={{ maxHeight: '70vh', overflow: 'auto' }}>
                {JSON.stringify(run.data.info, null, 2)}
              </Code>
            </Tabs.Panel>
          </Tabs>
        </>
      )}
      <DeleteRunDialog name={name} run={deleting ? number : null} onClose={() => setDeleting(false)} onDeleted={onDeleted} />
    </Stack>
  )
}
