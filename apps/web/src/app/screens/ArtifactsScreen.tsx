import { Anchor } from '@mantine/core'
import { useNavigate, useParams, useSearch } from '@tanstack/react-router'
import { useCallback, useMemo } from 'react'
import { ArtifactsPage } from '../../features/artifacts/ArtifactsPage'
import type { ArtifactSearch } from '../../features/artifacts/api/artifactsApi'
import { parseSearchQuery } from '../../features/search/searchModel'

/** The search bar's query (packages §5: a name and key:value filters) as a search of files, if it asks one. */
export function artifactSearchOf(query: unknown): ArtifactSearch | null {
  if (query === undefined || query === null || String(query).trim() === '') return null
  const model = parseSearchQuery(String(query))
  const checksum = model.filters.checksum?.trim()
  const name = model.name.trim()
  if (!name && !checksum) return null
  return { name, checksum: checksum || undefined, repositories: model.filters.repositories }
}

/** The artifacts browser at /artifacts/browse/{tree/General/repo/path}; the selection lives in the URL. */
export function ArtifactsScreen() {
  const params = useParams({ strict: false }) as { _splat?: string }
  const query = (useSearch({ strict: false }) as { query?: unknown }).query
  const search = useMemo(() => artifactSearchOf(query), [query])
  const navigate = useNavigate()
  const onNavigate = useCallback(
    (browsePath: string) => void navigate({ to: '/artifacts/browse/$', params: { _splat: browsePath } }),
    [navigate],
  )
  const packageLink = useCallback(
    (packageId: string, version: string | null) => (
      <Anchor
        href={`/ui/packages/${encodeURIComponent(packageId)}${version ? `/${encodeURIComponent(version)}` : ''}`}
        onClick={(e) => {
          e.preventDefault()
          void navigate({ to: '/packages/{-$packageId}/{-$versionId}', params: { packageId, versionId: version ?? undefined } })
        }}
      >
        {packageId}
        {version ? ` ${version}` : ''}
      </Anchor>
    ),
    [navigate],
  )
  const onCloseSearch = useCallback(
    () => void navigate({ to: '/artifacts/browse/$', params: { _splat: params._splat ?? '' } }),
    [navigate, params._splat],
  )
  return (
    <ArtifactsPage
      browsePath={params._splat ?? ''}
      onNavigate={onNavigate}
      packageLink={packageLink}
      search={search}
      onCloseSearch={onCloseSearch}
    />
  )
}
