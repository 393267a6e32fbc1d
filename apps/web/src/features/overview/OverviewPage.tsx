import '@mantine/charts/styles.css'
import { Alert, Grid, Skeleton, Stack, Text } from '@mantine/core'
import { PageHeader } from '../../ui/PageHeader'
import { useDashboard } from './api/dashboard'
import { ActivityCard } from './components/ActivityCard'
import { NodesCard } from './components/NodesCard'
import { StatCards } from './components/StatCards'
import { StorageBarsCard, StorageGrowthCard } from './components/StorageCards'
import { TopPackagesCard } from './components/TopPackagesCard'
import { TrafficCard } from './components/TrafficCard'
import { VulnerabilitiesCard } from './components/VulnerabilitiesCard'

/**
 * Shell §2.1's Overview, grown into the instance at a glance: every figure from the server's
 * roll-up (GET /ui/api/v1/ui/dashboard), each linking to the screen that lists it.
 */
export function OverviewPage() {
  const dashboard = useDashboard()
  const data = dashboard.data
  return (
    <>
      <PageHeader title="Overview" breadcrumbs={['Overview']}>
        {data && (
          <Text size="sm" c="dimmed">
            {data.scope === 'readable' ? 'The repositories you can read, at a glance' : 'The instance at a glance'}
          </Text>
        )}
      </PageHeader>
      {dashboard.error && (
        <Alert color="red" title="The dashboard did not load" mb="md">
          {dashboard.error.message || 'The server did not answer. Try again in a moment.'}
        </Alert>
      )}
      {!data ? (
        !dashboard.error && <Skeleton h={400} radius="md" aria-label="Loading the dashboard" />
      ) : (
        <>
          <StatCards data={data} />
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <StorageBarsCard data={data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <StorageGrowthCard data={data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <TrafficCard data={data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <TopPackagesCard data={data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <ActivityCard data={data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <Stack gap="md" h="100%">
                <div style={{ flex: 1 }}>
                  <VulnerabilitiesCard data={data} />
                </div>
                {data.nodes && (
                  <div>
                    <NodesCard data={data} />
                  </div>
                )}
              </Stack>
            </Grid.Col>
          </Grid>
        </>
      )}
    </>
  )
}
