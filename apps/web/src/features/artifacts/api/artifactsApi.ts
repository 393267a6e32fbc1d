import { queryOptions } from '@tanstack/react-query'
import {
  ARTIFACT_SEARCH_PATH,
  type ArtifactSearchResponse,
  type CopyMoveRequest,
  type CopyMoveResponse,
  type DeleteNodeResponse,
  type NodeInfo,
  type NodeProperties,
  RESULT_DETAIL_HEADER,
  type TreeResponse,
} from '@trove/contracts/artifacts'
import { CSRF_HEADER } from '@trove/contracts/http'
import type { ArtifactBuildsResponse } from '@trove/contracts/packages'
import { API_BASE, ApiError, apiRequest, csrfToken } from '../../../lib/api'

const BASE = '/ui/artifacts'

export interface NodeAddress {
  repoKey: string
  path: string
}

/** One page of a folder's children (the repositories when repoKey is undefined). */
export function fetchChildren(
  q: { repoKey?: string; path?: string; after?: string | null; from?: string; filter?: string; limit?: number },
  signal?: AbortSignal,
): Promise<TreeResponse> {
  return apiRequest<TreeResponse>(`${BASE}/tree`, {
    query: {
      repoKey: q.repoKey,
      path: q.path || undefined,
      after: q.after ?? undefined,
      from: q.from,
      filter: q.filter || undefined,
      limit: q.limit,
    },
    signal,
  })
}

/** What the search bar asks of files: part of a name (`*` and `?` as wildcards) or a checksum, in some repositories. */
export interface ArtifactSearch {
  name: string
  checksum?: string
  repositories?: string[]
}

const CHECKSUM_KINDS: Record<number, 'md5' | 'sha1' | 'sha256'> = { 32: 'md5', 40: 'sha1', 64: 'sha256' }

/** The files a search finds, each with its details (the REST search API, asked for `info`). */
export const artifactSearchQuery = (search: ArtifactSearch) =>
  queryOptions({
    queryKey: ['artifacts', 'search', search.name, search.checksum ?? '', search.repositories ?? []],
    queryFn: ({ signal }) => {
      const repos = search.repositories?.length ? search.repositories.join(',') : undefined
      const sum = search.checksum?.trim()
      const kind = sum ? CHECKSUM_KINDS[sum.length] : undefined
      const path = sum ? '/api/search/checksum' : ARTIFACT_SEARCH_PATH
      const query = sum ? { [kind ?? 'sha256']: sum, repos } : { name: search.name, repos }
      return apiRequest<ArtifactSearchResponse>(path, {
        absolute: true,
        query,
        headers: { [RESULT_DETAIL_HEADER]: 'info' },
        signal,
      })
    },
    retry: false,
  })

export const nodeInfoQuery = (node: NodeAddress) =>
  queryOptions({
    queryKey: ['artifacts', 'info', node.repoKey, node.path],
    queryFn: () => apiRequest<NodeInfo>(`${BASE}/info`, { query: { repoKey: node.repoKey, path: node.path || undefined } }),
    retry: false,
  })

export const nodePropertiesQuery = (node: NodeAddress) =>
  queryOptions({
    queryKey: ['artifacts', 'properties', node.repoKey, node.path],
    queryFn: () =>
      apiRequest<NodeProperties>(`${BASE}/properties`, { query: { repoKey: node.repoKey, path: node.path || undefined } }),
  })

export const nodeBuildsQuery = (node: NodeAddress) =>
  queryOptions({
    queryKey: ['artifacts', 'builds', node.repoKey, node.path],
    queryFn: () =>
      apiRequest<ArtifactBuildsResponse>('/ui/artifactbuilds', { query: { repoKey: node.repoKey, path: node.path } }),
  })

export function setProperty(node: NodeAddress, name: string, values: string[], recursive: boolean) {
  return apiRequest<{ files: number }>(`${BASE}/properties`, { method: 'PUT', body: { ...node, name, values, recursive } })
}

export function deleteProperty(node: NodeAddress, name: string, recursive: boolean) {
  return apiRequest<{ files: number }>(`${BASE}/properties`, {
    method: 'DELETE',
    query: { repoKey: node.repoKey, path: node.path, name, recursive: recursive ? 'true' : 'false' },
  })
}

export function deleteNode(node: NodeAddress) {
  return apiRequest<DeleteNodeResponse>(`${BASE}/node`, { method: 'DELETE', query: { repoKey: node.repoKey, path: node.path } })
}

export function copyOrMove(op: 'copy' | 'move', request: CopyMoveRequest) {
  return apiRequest<CopyMoveResponse>(`${BASE}/${op}`, { method: 'POST', body: request })
}

/** Where the browser downloads a file (an attachment). */
export const downloadUrl = (node: NodeAddress) =>
  `${API_BASE}/download?${new URLSearchParams({ repoKey: node.repoKey, path: node.path }).toString()}`

export interface Upload {
  /** Resolves when the server stored the file; rejects with an ApiError, or 'aborted'. */
  done: Promise<void>
  cancel: () => void
}

/**
 * Deploys one file with progress: XMLHttpRequest, because fetch reports no upload progress. The
 * body streams to the server, which stores nothing until the whole file has arrived.
 */
export function uploadFile(
  target: NodeAddress,
  file: Blob,
  properties: string,
  onProgress: (loaded: number, total: number) => void,
): Upload {
  const xhr = new XMLHttpRequest()
  const path = target.path.split('/').map(encodeURIComponent).join('/')
  const query = properties ? `?${new URLSearchParams({ properties }).toString()}` : ''
  const done = new Promise<void>((resolve, reject) => {
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size)
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve()
      let message = ''
      try {
        message = (JSON.parse(xhr.responseText) as { errors?: { message?: string }[] }).errors?.[0]?.message ?? ''
      } catch {
        // not JSON
      }
      reject(new ApiError(xhr.status, message))
    }
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed: no answer from the server'))
    xhr.onabort = () => reject(new Error('aborted'))
  })
  xhr.open('PUT', `${API_BASE}${BASE}/deploy/${encodeURIComponent(target.repoKey)}/${path}${query}`)
  xhr.setRequestHeader('content-type', 'application/octet-stream')
  const token = csrfToken()
  if (token) xhr.setRequestHeader(CSRF_HEADER, token)
  xhr.send(file)
  return { done, cancel: () => xhr.abort() }
}
