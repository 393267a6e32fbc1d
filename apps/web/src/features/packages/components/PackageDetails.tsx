import { Alert, Group, Loader, Stack, Switch, Tabs, Text, UnstyledButton } from '@mantine/core'
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import type { VersionNode } from '@trove/contracts/packages'
import { useEffect, useMemo, useState } from 'react'
import { VulnerabilityBadges } from '../../../ui/VulnerabilityBadges'
import { versionQuery as oneVersionQuery, packageQuery, readmeQuery, versionsQuery } from '../api/packagesApi'
import { formatSize } from '../packageRules'
import { loadPackage, usePackagesState } from '../packagesState'
import { type VersionQuery, versionsVariablesOf } from '../versionQuery'
import { PackageSummary } from './PackageSummary'
import { VersionReadme } from './VersionReadme'
import { VirtualList } from './VirtualList'

export interface PackageDetailsProps {
  packageId: string
  /** Extra package selections the licence and features allow. */
  packageFields: string
  versionQuery: VersionQuery
  onOpenVersion: (packageId: string, version: string) => void
  onNotFound: () => void
}

const ROW_HEIGHT = 48

type PackageTab = 'readme' | 'versions'

/** The package level: the package, its latest version's readme and its versions. */
export function PackageDetails({ packageId, packageFields, versionQuery, onOpenVersion, onNotFound }: PackageDetailsProps) {
  const queryClient = useQueryClient()
  const state = usePackagesState()
  useEffect(() => {
    let live = true
    // §4, §8: a failed (or empty) package fetch sends the user to the 404 route.
    void loadPackage(queryClient, packageId, packageFields).then((pkg) => {
      if (live && !pkg) onNotFound()
    })
    return () => {
      live = false
    }
  }, [queryClient, packageId, packageFields, onNotFound])
  const pkg = useQuery({ ...packageQuery(packageId, packageFields), enabled: false }).data
  const [releasesOnly, setReleasesOnly] = useState(false)
  // §5: the version listing asks for files only for docker packages.
  const docker = pkg?.packageType === 'docker'
  const versions = useInfiniteQuery({
    ...versionsQuery(versionsVariablesOf(packageId, versionQuery, releasesOnly, null), docker),
    enabled: !!pkg,
  })
  const rows = useMemo(() => versions.data?.pages.flatMap((p) => p.edges?.map((e) => e.node) ?? []) ?? [], [versions.data])
  // The package level installs its latest version, from the repository that holds it.
  const latestRepo = (rows.find((v) => v.name === pkg?.latestVersion) ?? rows[0])?.repos?.[0]?.name ?? undefined

  // The package's Readme tab is its latest version's readme, as the package call reports the latest.
  const latest = (pkg?.versionsCount ?? 0) > 0 ? (pkg?.latestVersion ?? null) : null
  const latestVersion = useQuery({ ...oneVersionQuery(packageId, latest ?? ''), enabled: !!latest })
  const latestId = latestVersion.data?.id ?? null
  const readme = useQuery({ ...readmeQuery(latestId ?? ''), enabled: !!latestId })
  // The tabs wait for that answer, so the opening tab does not jump from Versions to Readme.
  const readmeKnown = !latest || latestVersion.isError || (latestVersion.isSuccess && (!latestId || readme.isSuccess))
  const [picked, setPicked] = useState<PackageTab | null>(null)
  // Readme first when there is one; a package without (a docker image, say) opens on its versions.
  const tab: PackageTab = picked ?? (readme.data ? 'readme' : 'versions')

  if (!pkg)
    return (
      <Group justify="center" py="xl">
        {state.packageInfoFetching && <Loader aria-label="Loading package" />}
      </Group>
    )
  return (
    <Stack gap="sm">
      <PackageSummary pkg={pkg} repoKey={latestRepo} />
      {(pkg.versionsCount ?? 0) === 0 ? (
        <Alert color="blue">{Messages.packageSoon}</Alert>
      ) : !readmeKnown ? (
        <Loader size="sm" aria-label="Loading readme" />
      ) : (
        <Tabs value={tab} onChange={(v) => v && setPicked(v as PackageTab)} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="readme">Readme</Tabs.Tab>
            <Tabs.Tab value="versions">Versions</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="readme" pt="md">
            {latestId ? (
              <Stack gap="xs">
                <Text size="sm" c="dimmed">
                  The readme of the latest version, {latest}.
                </Text>
                <VersionReadme versionId={latestId} />
              </Stack>
            ) : (
              <Text c="dimmed">{Messages.noReadme}</Text>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="versions" pt="md">
            <Stack gap="sm">
              <Switch
                label={Messages.releaseVersionsOnly}
                checked={releasesOnly}
                onChange={(e) => setReleasesOnly(e.currentTarget.checked)}
              />
              {releasesOnly && (
                <Text size="sm" c="dimmed">
                  {Messages.onlySemverReleases}
                </Text>
              )}
              {versions.isPending ? (
                <Loader aria-label="Loading versions" />
              ) : rows.length === 0 ? (
                <Text c="dimmed">{Messages.noVersionsFound}</Text>
              ) : (
                <VirtualList
                  label="Versions"
                  items={rows}
                  rowHeight={ROW_HEIGHT}
                  height="min(60vh, 640px)"
                  hasMore={versions.hasNextPage}
                  loadingMore={versions.isFetchingNextPage}
                  onLoadMore={() => void versions.fetchNextPage()}
                  rowKey={(v) => v.id ?? v.name ?? ''}
                  renderRow={(v) => <VersionRow version={v} onOpen={() => v.name && onOpenVersion(packageId, v.name)} />}
                />
              )}
            </Stack>
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  )
}

const downloads = (n = 0) => `${n} ${n === 1 ? 'download' : 'downloads'}`

function VersionRow({ version, onOpen }: { version: VersionNode; onOpen: () => void }) {
  return (
    <UnstyledButton
      onClick={onOpen}
      w="100%"
      h={ROW_HEIGHT - 2}
      px="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-version={version.name}
    >
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Text fw={600}>{version.name}</Text>
          {version.tags?.map((t) => (
            <Text key={t} size="xs" c="dimmed">
              {t}
            </Text>
          ))}
        </Group>
        <VulnerabilityBadges value={version.vulnerabilities} />
        <Text size="xs" c="dimmed">
          {(version.repos ?? []).map((r) => r.name).join(', ')} · {formatSize(version.size)} ·{' '}
          {downloads(version.stats?.downloadCount)} · {version.created ? new Date(version.created).toLocaleDateString() : ''}
        </Text>
      </Group>
    </UnstyledButton>
  )
}
