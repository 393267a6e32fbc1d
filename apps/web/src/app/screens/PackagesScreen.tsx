import { useNavigate, useParams, useSearch } from '@tanstack/react-router'
import { SECURITY_LICENSES } from '@trove/contracts/shell'
import { useCallback, useMemo } from 'react'
import { PackagesPage } from '../../features/packages/PackagesPage'
import { packagesCountRequest, versionQueryOf } from '../../features/search/packageQuery'
import { buildSearchQuery, isEmptyModel, parseSearchQuery } from '../../features/search/searchModel'
import { isAdmin } from '../../features/shell/model'
import { listRequestFor, packageFieldsFor } from '../packagesRequest'
import { useShellContext } from '../shellContext'

const COUNT_REQUEST = packagesCountRequest()

/** Composes the packages browser with the search model read from the query string. */
export function PackagesScreen() {
  const params = useParams({ strict: false }) as { packageId?: string; versionId?: string }
  const search = useSearch({ strict: false }) as { query?: string; projectKey?: string }
  const navigate = useNavigate()
  const ctx = useShellContext()
  const query = search.query ?? ''
  const model = useMemo(() => parseSearchQuery(query), [query])
  // §4: the list is fetched with the search model when the search is enabled (there is something to search).
  const securityLicense = SECURITY_LICENSES.includes(ctx.license)
  const packageFields = packageFieldsFor(ctx)
  const listRequest = useMemo(() => listRequestFor(model, packageFields), [model, packageFields])
  const versionQuery = useMemo(() => versionQueryOf(model), [model])
  const keep = useMemo(() => ({ query: search.query, projectKey: search.projectKey }), [search.query, search.projectKey])
  const onOpenPackage = useCallback(
    (packageId: string) => void navigate({ to: '/packages/{-$packageId}/{-$versionId}', params: { packageId }, search: keep }),
    [navigate, keep],
  )
  const onOpenVersion = useCallback(
    (packageId: string, versionId: string) =>
      void navigate({ to: '/packages/{-$packageId}/{-$versionId}', params: { packageId, versionId }, search: keep }),
    [navigate, keep],
  )
  const onNotFound = useCallback(() => void navigate({ to: '/404', replace: true }), [navigate])
  const listFilters = useMemo(
    () => ({ packageType: model.filters.packageTypes?.[0] ?? null, repository: model.filters.repositories?.[0] ?? null }),
    [model],
  )
  const onListFilters = useCallback(
    (next: { packageType: string | null; repository: string | null }) => {
      const filters = {
        ...model.filters,
        packageTypes: next.packageType ? [next.packageType] : undefined,
        repositories: next.repository ? [next.repository] : undefined,
      }
      const query = buildSearchQuery({ ...model, filters })
      void navigate({ to: '/packages/{-$packageId}/{-$versionId}', params: {}, search: { ...keep, query: query || undefined } })
    },
    [model, navigate, keep],
  )
  return (
    <PackagesPage
      packageId={params.packageId}
      versionId={params.versionId}
      listRequest={listRequest}
      arrival={isEmptyModel(model)}
      listFilters={listFilters}
      onListFilters={onListFilters}
      countRequest={COUNT_REQUEST}
      versionQuery={versionQuery}
      admin={isAdmin(ctx)}
      scannerPresent={ctx.services.has('scanner')}
      securityLicense={securityLicense}
      packageFields={packageFields}
      legacyVersionView={ctx.features.legacyVersionView === true}
      onOpenPackage={onOpenPackage}
      onOpenVersion={onOpenVersion}
      onNotFound={onNotFound}
    />
  )
}
