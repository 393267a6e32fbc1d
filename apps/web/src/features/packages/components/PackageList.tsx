import { Alert, Badge, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core'
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import type { MdsRequest, PackageNode } from '@trove/contracts/packages'
import { useEffect, useMemo } from 'react'
import { VulnerabilityBadges } from '../../../ui/VulnerabilityBadges'
import { packagesQuery } from '../api/packagesApi'
import { initPackageList, usePackagesState } from '../packagesState'
import { VirtualList } from './VirtualList'

export interface PackageListProps {
  /** The packages search (§4: only when the search type is packages and search is enabled), or null. */
  request: MdsRequest | null
  countRequest: MdsRequest
  admin: boolean
  /** A post-upgrade migration is still indexing packages. */
  migrationRunning?: boolean
  /** Nothing searched or filtered yet: the most recently updated packages are listed. */
  arrival?: boolean
  /** The list's type and repository filters, shown above it. */
  filters?: React.ReactNode
  onOpenPackage: (id: string) => void
}

const ROW_HEIGHT = 64

/** The list level of the packages browser. */
export function PackageList({
  request,
  countRequest,
  admin,
  migrationRunning,
  arrival,
  filters,
  onOpenPackage,
}: PackageListProps) {
  const queryClient = useQueryClient()
  const state = usePackagesState()
  useEffect(() => {
    void initPackageList(queryClient, { admin, request, countRequest })
  }, [queryClient, admin, request, countRequest])
  const list = useInfiniteQuery({ ...packagesQuery(request ?? countRequest), enabled: request !== null })
  const packages = useMemo(() => list.data?.pages.flatMap((p) => p.edges?.map((e) => e.node) ?? []) ?? [], [list.data])

  return (
    <Stack gap="sm">
      {migrationRunning && (
        <Alert color="orange" role="status">
          {Messages.migrationRunning}
        </Alert>
      )}
      {filters}
      {request === null ? (
        <Stack align="center" py="xl" gap={4}>
          <Text fw={600}>{Messages.findPackagesHint}</Text>
          {!admin && state.packageCount >= 0 && (
            <Text size="sm" c="dimmed" data-testid="package-count">
              {state.packageCount.toLocaleString()} packages
            </Text>
          )}
          {!admin && state.packageCount === -1 && state.initializing === null && (
            <Text size="sm" c="dimmed">
              {Messages.packageListNotReady}
            </Text>
          )}
        </Stack>
      ) : list.isPending || (state.pageLoading && packages.length === 0) ? (
        <Group justify="center" py="xl">
          <Loader aria-label="Loading packages" />
        </Group>
      ) : packages.length === 0 ? (
        <Text ta="center" py="xl" fw={600}>
          {Messages.noPackagesFound}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="package-count">
            {packages.length}
            {list.hasNextPage ? '+' : ''} {packages.length === 1 ? 'package' : 'packages'}
            {arrival ? `, most recently updated first · ${Messages.findPackagesHint}` : ''}
          </Text>
          <VirtualList
            label="Packages"
            items={packages}
            rowHeight={ROW_HEIGHT}
            height="calc(100vh - 240px)"
            hasMore={list.hasNextPage}
            loadingMore={list.isFetchingNextPage}
            onLoadMore={() => void list.fetchNextPage()}
            rowKey={(p) => p.id ?? ''}
            renderRow={(p) => <PackageRow pkg={p} onOpen={onOpenPackage} />}
          />
        </>
      )}
    </Stack>
  )
}

function PackageRow({ pkg, onOpen }: { pkg: PackageNode; onOpen: (id: string) => void }) {
  return (
    <UnstyledButton
      onClick={() => pkg.id && onOpen(pkg.id)}
      w="100%"
      h={ROW_HEIGHT - 4}
      px="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-package-id={pkg.id}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="nowrap">
            <Badge size="sm" variant="light">
              {pkg.packageType}
            </Badge>
            <Text fw={600} truncate>
              {pkg.name}
            </Text>
            {pkg.latestVersion && (
              <Text size="sm" c="dimmed">
                {pkg.latestVersion}
              </Text>
            )}
          </Group>
          <Text size="sm" c="dimmed" truncate>
            {pkg.description}
          </Text>
        </Stack>
        <VulnerabilityBadges value={pkg.vulnerabilities} />
        <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
          <Text size="xs" c="dimmed">
            {pkg.versionsCount} {pkg.versionsCount === 1 ? 'version' : 'versions'} · {pkg.stats?.downloads ?? 0}{' '}
            {pkg.stats?.downloads === 1 ? 'download' : 'downloads'}
          </Text>
          {pkg.modified && (
            <Text size="xs" c="dimmed">
              Updated {new Date(pkg.modified).toLocaleDateString()}
            </Text>
          )}
        </Stack>
      </Group>
    </UnstyledButton>
  )
}
