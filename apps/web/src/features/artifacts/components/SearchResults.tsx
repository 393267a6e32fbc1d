import { Alert, Anchor, CloseButton, Group, Loader, Stack, Table, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { ARTIFACT_SEARCH_LIMIT, type ArtifactSearchResult } from '@trove/contracts/artifacts'
import { ApiError } from '../../../lib/api'
import { formatSize } from '../../../lib/format'
import { type ArtifactSearch, artifactSearchQuery, type NodeAddress } from '../api/artifactsApi'
import { formatDate } from '../format'
import { browsePathOf } from '../treeModel'

export interface SearchResultsProps {
  search: ArtifactSearch
  /** Opens a found file in the tree. */
  onOpen: (node: NodeAddress) => void
  onClose: () => void
}

const what = (s: ArtifactSearch) => (s.checksum ? `the checksum ${s.checksum}` : `“${s.name}”`)

/** The files the search bar found: name, path, repository, size and modified; a click opens one in the tree. */
export function SearchResults({ search, onOpen, onClose }: SearchResultsProps) {
  const found = useQuery(artifactSearchQuery(search))
  const rows = (found.data?.results ?? []).filter((r): r is ArtifactSearchResult & { repo: string; path: string } =>
    Boolean(r.repo && r.path),
  )
  return (
    <Stack gap="sm" aria-label="Search results" role="region">
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} size="h3">
          Search results
        </Title>
        <CloseButton aria-label="Close the search results" onClick={onClose} />
      </Group>
      {found.isPending ? (
        <Loader size="sm" aria-label="Searching" />
      ) : found.isError ? (
        <Alert color="red">
          {found.error instanceof ApiError && found.error.message ? found.error.message : 'The search failed'}
        </Alert>
      ) : rows.length === 0 ? (
        <Text c="dimmed">
          No file you may read matches {what(search)}
          {search.repositories?.length ? ` in ${search.repositories.join(', ')}` : ''}.
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {rows.length >= ARTIFACT_SEARCH_LIMIT
              ? `The first ${ARTIFACT_SEARCH_LIMIT} files matching ${what(search)}: type more of the name to narrow them.`
              : `${rows.length} ${rows.length === 1 ? 'file matches' : 'files match'} ${what(search)}.`}
          </Text>
          <Table.ScrollContainer minWidth={560}>
            <Table striped highlightOnHover fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Path</Table.Th>
                  <Table.Th>Repository</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Size</Table.Th>
                  <Table.Th>Modified</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => {
                  const node = { repoKey: r.repo, path: r.path.replace(/^\/+/, '') }
                  const folder = node.path.slice(0, Math.max(0, node.path.lastIndexOf('/')))
                  return (
                    <Table.Tr key={`${r.repo}/${r.path}`}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Anchor
                          href={`/ui/artifacts/browse/${browsePathOf(node).split('/').map(encodeURIComponent).join('/')}`}
                          onClick={(e) => {
                            e.preventDefault()
                            onOpen(node)
                          }}
                        >
                          {r.name ?? node.path}
                        </Anchor>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text size="sm" ff="monospace">
                          {folder ? `${folder}/` : '/'}
                        </Text>
                      </Table.Td>
                      <Table.Td>{r.repo}</Table.Td>
                      <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>{formatSize(r.size, '—')}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }} title={formatDate(r.lastModified)}>
                        {r.lastModified ? new Date(r.lastModified).toLocaleDateString() : '—'}
                      </Table.Td>
                    </Table.Tr>
                  )
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  )
}
