import { Alert, Box, Button, Group, Modal, Stack, Text } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { NodeInfo } from '@trove/contracts/artifacts'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ApiError } from '../../lib/api'
import { notify } from '../../lib/notify'
import { PageHeader } from '../../ui/PageHeader'
import { type ArtifactSearch, deleteNode, downloadUrl, fetchChildren, type NodeAddress, nodeInfoQuery } from './api/artifactsApi'
import { CopyMoveDialog } from './components/CopyMoveDialog'
import { DeployDialog } from './components/DeployDialog'
import { NodeDetails } from './components/NodeDetails'
import { SearchResults } from './components/SearchResults'
import { TreePanel } from './components/TreePanel'
import { browsePathOf, parseBrowsePath, ROOT } from './treeModel'
import { useTree } from './useTree'

export interface ArtifactsPageProps {
  /** What follows /artifacts/browse/ in the URL: `tree/General/{repoKey}/{path}`. */
  browsePath: string
  /** Puts a node's browse path in the URL (replacing the entry while only the selection moves). */
  onNavigate: (browsePath: string) => void
  packageLink: (packageId: string, version: string | null) => React.ReactNode
  /** A search from the search bar (the URL's query): its results replace the details until closed. */
  search?: ArtifactSearch | null
  /** Closes the search results (the URL keeps the selection, without the query). */
  onCloseSearch?: () => void
}

type Dialog = null | 'deploy' | 'copy' | 'move' | 'delete'

/** The artifacts browser: the tree on the left, the selected node's tabs and actions on the right. */
export function ArtifactsPage({ browsePath, onNavigate, packageLink, search, onCloseSearch }: ArtifactsPageProps) {
  const tree = useTree()
  const queryClient = useQueryClient()
  const [dialog, setDialog] = useState<Dialog>(null)
  const [missing, setMissing] = useState<string | null>(null)
  const wanted = useMemo(() => parseBrowsePath(browsePath), [browsePath])
  const selected = wanted ? (wanted.path ? `${wanted.repoKey}/${wanted.path}` : `${wanted.repoKey}/`) : null
  const selectedNode: NodeAddress | null = wanted ? { repoKey: wanted.repoKey, path: wanted.path } : null
  const revealed = useRef<string | null>(null)
  const { reveal, loadPage, findNode } = tree

  // The top level first; then the URL's node is revealed (its ancestors opened and paged to it).
  useEffect(() => {
    // A deep link loads the top level around its repository (see reveal).
    if (!wanted && !tree.levels.has(ROOT)) void loadPage(ROOT)
  }, [wanted, tree.levels, loadPage])
  useEffect(() => {
    if (!wanted || revealed.current === browsePath) return
    revealed.current = browsePath
    const target = wanted.path ? `${wanted.repoKey}/${wanted.path}` : `${wanted.repoKey}/`
    const ancestors = wanted.path ? wanted.ancestors : []
    void reveal(ancestors, target).then((id) => setMissing(id ? null : target))
  }, [browsePath, wanted, reveal])

  // The tree's row id of the selection: a folder's id ends with '/'.
  const selectedId = selected && (findNode(selected) ? selected : findNode(`${selected}/`) ? `${selected}/` : selected)
  const select = useCallback(
    (id: string) => {
      if (id.includes('\0')) return
      const node = findNode(id)
      if (!node) return
      revealed.current = browsePathOf(node)
      onNavigate(browsePathOf(node))
    },
    [findNode, onNavigate],
  )

  const info = useQuery({ ...nodeInfoQuery(selectedNode ?? { repoKey: '', path: '' }), enabled: !!selectedNode }).data
  const targets = useQuery({
    queryKey: ['artifacts', 'deployTargets'],
    queryFn: async () => {
      const out: string[] = []
      let after: string | null = null
      for (let i = 0; i < 50; i++) {
        const page = await fetchChildren({ after, limit: 1000 })
        for (const n of page.nodes) if (n.rclass === 'local') out.push(n.repoKey)
        if (!page.next) break
        after = page.next
      }
      return out
    },
    enabled: dialog === 'copy' || dialog === 'move',
  }).data

  const parentOf = (node: NodeAddress) => {
    const cut = node.path.lastIndexOf('/')
    return cut < 0 ? `${node.repoKey}/` : `${node.repoKey}/${node.path.slice(0, cut)}/`
  }
  /** After a change under a level: the details read again, the level reloaded and shown open. */
  const afterChange = async (level: string) => {
    await queryClient.invalidateQueries({ queryKey: ['artifacts'] })
    await tree.refresh(level)
    if (level !== ROOT) await tree.expand(level)
  }
  const remove = useMutation({
    mutationFn: (node: NodeAddress) => deleteNode(node),
    onSuccess: async (r, node) => {
      notify({ color: 'teal', message: `Deleted ${r.files} file(s)` })
      setDialog(null)
      // The nearest folder left above it (a folder goes with its last file).
      const parent = r.parent ? `${node.repoKey}/${r.parent}/` : `${node.repoKey}/`
      onNavigate(browsePathOf({ repoKey: node.repoKey, path: r.parent }))
      await afterChange(parent)
    },
  })

  const actions = (i: NodeInfo) => {
    const local = i.rclass === 'local'
    const may = (a: NodeInfo['actions'][number]) => i.actions.includes(a)
    return (
      <>
        {i.type === 'file' && (
          <Button component="a" href={downloadUrl({ repoKey: i.repoKey, path: i.path })} size="xs" variant="light">
            Download
          </Button>
        )}
        {i.type === 'file' && i.viewUri && (
          // The download origin shows the file inline, sandboxed, on a host without the console's cookies.
          <Button component="a" href={i.viewUri} target="_blank" rel="noopener noreferrer" size="xs" variant="light">
            View
          </Button>
        )}
        {i.type !== 'file' && may('deploy') && (local || i.rclass === 'virtual') && (
          <Button size="xs" variant="light" onClick={() => setDialog('deploy')}>
            Deploy
          </Button>
        )}
        {i.type !== 'repository' && i.rclass !== 'virtual' && (
          <Button size="xs" variant="light" onClick={() => setDialog('copy')}>
            Copy
          </Button>
        )}
        {i.type !== 'repository' && local && may('delete') && (
          <Button size="xs" variant="light" onClick={() => setDialog('move')}>
            Move
          </Button>
        )}
        {i.type !== 'repository' && local && may('delete') && (
          <Button size="xs" variant="light" color="red" onClick={() => setDialog('delete')}>
            Delete
          </Button>
        )}
      </>
    )
  }

  return (
    <Stack gap={0}>
      <PageHeader title="Artifacts" />
      <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(260px, 380px) minmax(0, 1fr)', gap: 24 }}>
        <Box>
          <TreePanel tree={tree} selected={selectedId} onSelect={select} height="calc(100vh - 230px)" />
        </Box>
        <Box>
          {search ? (
            <SearchResults search={search} onOpen={(node) => onNavigate(browsePathOf(node))} onClose={() => onCloseSearch?.()} />
          ) : (
            <>
              {missing && (
                <Alert color="yellow" mb="sm">
                  {missing.replace(/\/$/, '')} was not found, or you may not read it.
                </Alert>
              )}
              {selectedNode && !missing ? (
                <NodeDetails node={selectedNode} actions={actions} packageLink={packageLink} />
              ) : !missing ? (
                <Text c="dimmed">Select a repository, folder or file to see its details.</Text>
              ) : null}
            </>
          )}
        </Box>
      </Box>
      {selectedNode && info && (
        <>
          <DeployDialog
            key={`deploy-${browsePath}`}
            opened={dialog === 'deploy'}
            onClose={() => setDialog(null)}
            target={{ repoKey: info.repoKey, path: info.type === 'repository' ? '' : info.path }}
            onDeployed={() => void afterChange(info.type === 'repository' ? `${info.repoKey}/` : `${info.repoKey}/${info.path}/`)}
          />
          {(['copy', 'move'] as const).map((op) => (
            <CopyMoveDialog
              key={`${op}-${browsePath}`}
              op={op}
              opened={dialog === op}
              onClose={() => setDialog(null)}
              source={{ repoKey: info.sourceRepoKey ?? info.repoKey, path: info.path }}
              targets={targets ?? []}
              onDone={(repoKey, path) => {
                notify({ color: 'teal', message: `${op === 'copy' ? 'Copied' : 'Moved'} to ${repoKey}/${path}` })
                void afterChange(op === 'move' ? parentOf(selectedNode) : ROOT)
                if (op === 'move') onNavigate(browsePathOf({ repoKey, path }))
              }}
            />
          ))}
          <Modal opened={dialog === 'delete'} onClose={() => setDialog(null)} title="Delete">
            <Stack>
              <Text>
                Delete {info.type === 'folder' ? 'the folder' : ''} <b>{info.path}</b> from {info.repoKey}
                {info.type === 'folder' ? ', with everything under it' : ''}? This cannot be undone.
              </Text>
              {remove.isError && (
                <Alert color="red">
                  {remove.error instanceof ApiError && remove.error.message ? remove.error.message : 'The deletion failed'}
                </Alert>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setDialog(null)}>
                  Cancel
                </Button>
                <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(selectedNode)}>
                  Delete
                </Button>
              </Group>
            </Stack>
          </Modal>
        </>
      )}
    </Stack>
  )
}
