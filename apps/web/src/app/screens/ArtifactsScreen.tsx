import { Anchor } from '@mantine/core'
import { useNavigate, useParams } from '@tanstack/react-router'
import { useCallback } from 'react'
import { ArtifactsPage } from '../../features/artifacts/ArtifactsPage'

/** The artifacts browser at /artifacts/browse/{tree/General/repo/path}; the selection lives in the URL. */
export function ArtifactsScreen() {
  const params = useParams({ strict: false }) as { _splat?: string }
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
  return <ArtifactsPage browsePath={params._splat ?? ''} onNavigate={onNavigate} packageLink={packageLink} />
}
