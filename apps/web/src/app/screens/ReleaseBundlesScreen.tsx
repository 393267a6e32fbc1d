import { Loader } from '@mantine/core'
import { useNavigate, useParams, useSearch } from '@tanstack/react-router'
import { lazy, Suspense, useCallback, useMemo } from 'react'
import { ReleaseBundlesPage } from '../../features/releaseBundles/ReleaseBundlesPage'
import { type BundleTab, isBundleTab } from '../../features/releaseBundles/tabs'
import { useRepositories } from '../../features/repositories/api/listRepositories'
import { isAdmin } from '../../features/shell/model'
import { useShellContext } from '../shellContext'

// The packages browser's readme renderer (markdown, sanitized), loaded when notes are first shown.
const Readme = lazy(() => import('../../features/packages/components/Readme').then((m) => ({ default: m.Readme })))

function ReleaseNotes({ text }: { text: string }) {
  return (
    <Suspense fallback={<Loader size="sm" aria-label="Loading the release notes" />}>
      <Readme text={text} />
    </Suspense>
  )
}

/** Search params of the release-bundles screen: the top bar's release-bundles search (packages §2). */
export interface ReleaseBundlesSearch {
  query?: string
}

/** /release-bundles/{tab}: the top bar's release-bundles search arrives as ?query= and fills the lists' filter. */
export function ReleaseBundlesScreen() {
  const { activeTab, name, version } = useParams({ strict: false }) as { activeTab: string; name?: string; version?: string }
  const search = useSearch({ strict: false }) as ReleaseBundlesSearch
  const navigate = useNavigate()
  const ctx = useShellContext()
  const repositories = useRepositories()
  const tab: BundleTab = isBundleTab(activeTab) ? activeTab : 'source'
  // The open bundle lives in the address, so a bundle can be linked to and Back closes it.
  const opened = name && version && tab !== 'target-history' ? { name, version } : null
  const onOpened = useCallback(
    (bundle: { name: string; version: string } | null, at: BundleTab) =>
      void (bundle
        ? navigate({
            to: '/release-bundles/$activeTab/$name/$version',
            params: { activeTab: at, name: bundle.name, version: bundle.version },
            search: { query: search.query },
          })
        : navigate({ to: '/release-bundles/$activeTab', params: { activeTab: at }, search: { query: search.query } })),
    [navigate, search.query],
  )
  const onTab = useCallback(
    (next: BundleTab) =>
      void navigate({ to: '/release-bundles/$activeTab', params: { activeTab: next }, search: { query: search.query } }),
    [navigate, search.query],
  )
  // The list names types as tools write them (Npm, Docker): the bundle sources want their keys.
  const repositoryOptions = useMemo(
    () =>
      (repositories.data ?? [])
        .map((r) => ({ key: r.key, packageType: r.packageType.toLowerCase() }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    [repositories.data],
  )
  return (
    <ReleaseBundlesPage
      key={search.query ?? ''}
      tab={tab}
      onTab={onTab}
      admin={isAdmin(ctx)}
      distributionRunning={ctx.services.has('distribution')}
      query={search.query ?? ''}
      opened={opened}
      onOpened={onOpened}
      repositories={repositoryOptions}
      Markdown={ReleaseNotes}
    />
  )
}
