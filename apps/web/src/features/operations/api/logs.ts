import { queryOptions, useQuery } from '@tanstack/react-query'
import { LOG_BASE_PATHS, type LogConfig, type LogData, type ServiceType } from '@trove/contracts/operations'
import { apiRequest } from '../../../lib/api'

const base = (service: string) => LOG_BASE_PATHS[service as ServiceType] ?? ''

export const getLogConfig = (service: string, nodeId: string) =>
  apiRequest<LogConfig>(`/${base(service)}system/logs/config/${encodeURIComponent(service)}`, { query: { nodeId } })
export const logConfigQuery = (service: string, nodeId: string | null) =>
  queryOptions({
    queryKey: ['operations', 'logs', 'config', service, nodeId],
    queryFn: () => getLogConfig(service, nodeId ?? ''),
    enabled: nodeId !== null,
  })
export const useLogConfig = (service: string, nodeId: string | null) => useQuery(logConfigQuery(service, nodeId))

/** What the file gained since `fileSize` (undefined: the last lines). Polled by the viewer, not cached. */
export const getLogData = (
  service: string,
  params: { nodeId: string; id: string; fileSize?: number; fileId?: string },
  signal?: AbortSignal,
) =>
  apiRequest<LogData>(`/${base(service)}system/logs/data/${encodeURIComponent(service)}`, {
    query: { nodeId: params.nodeId, id: params.id, file_size: params.fileSize, file_id: params.fileId },
    signal,
  })
