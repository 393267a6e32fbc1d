import { Anchor } from '@mantine/core'
import { useRouter } from '@tanstack/react-router'
import { artifactTreePath, type BuildItemFile } from '@trove/contracts/builds'
import type { MouseEvent, ReactNode } from 'react'

/**
 * A link to a stored file in the artifact tree (`/ui/artifacts/browse/tree/General/{repo}/{path}`).
 * A plain click stays in the console (router navigation); other clicks do what the browser does.
 */
export function ArtifactLink({ file, children }: { file: BuildItemFile; children: ReactNode }) {
  const router = useRouter()
  const to = artifactTreePath(file.repoKey, file.path)
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    void router.navigate({ href: to })
  }
  return (
    <Anchor href={`${router.options.basepath ?? ''}${to}`} onClick={onClick} title={`${file.repoKey}/${file.path}`}>
      {children}
    </Anchor>
  )
}
