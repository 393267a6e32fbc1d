import { useNavigate, useSearch } from '@tanstack/react-router'
import { useCallback } from 'react'
import { SecuritySearchPage } from '../../features/search/security/SecuritySearchPage'

const versionHref = (packageId: string, version: string) =>
  `/ui/packages/${encodeURIComponent(packageId)}/${encodeURIComponent(version)}`

/** /security-compliance?query=…: the security search type's results; versions open in the packages browser. */
export function SecuritySearchScreen() {
  const search = useSearch({ strict: false }) as { query?: string }
  const navigate = useNavigate()
  const onOpenVersion = useCallback(
    (packageId: string, versionId: string) =>
      void navigate({ to: '/packages/{-$packageId}/{-$versionId}', params: { packageId, versionId } }),
    [navigate],
  )
  return <SecuritySearchPage query={search.query ?? ''} versionHref={versionHref} onOpenVersion={onOpenVersion} />
}
