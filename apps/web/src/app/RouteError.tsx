import type { ErrorComponentProps } from '@tanstack/react-router'
import { ErrorScreen } from '../ui/ErrorScreen'
import { ChunkLoadError } from './chunks'

/** Every route's error component: the generic error screen, with what went wrong under 'See more details'. */
export function RouteError({ error }: ErrorComponentProps) {
  const details =
    error instanceof ChunkLoadError
      ? [`${error.message} (${error.type})`, error.code].filter(Boolean).join('\n')
      : error instanceof Error
        ? error.message
        : String(error)
  return <ErrorScreen details={details} />
}
