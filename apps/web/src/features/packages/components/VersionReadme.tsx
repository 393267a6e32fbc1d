import { Loader, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import { lazy, Suspense } from 'react'
import { readmeQuery } from '../api/packagesApi'

// The markdown renderer loads with the first readme shown, not with the list.
const Readme = lazy(() => import('./Readme').then((m) => ({ default: m.Readme })))

/** A version's readme (the version's Readme tab, and the package's for its latest version), or why there is none. */
export function VersionReadme({ versionId }: { versionId: string }) {
  const readme = useQuery(readmeQuery(versionId))
  if (readme.isPending) return <Loader size="sm" aria-label="Loading readme" />
  return readme.data ? (
    <Suspense fallback={<Loader size="sm" aria-label="Loading readme" />}>
      <Readme text={readme.data} />
    </Suspense>
  ) : (
    <Text c="dimmed">{Messages.noReadme}</Text>
  )
}
