import { ErrorScreen } from '../../ui/ErrorScreen'

/** The route named 500. */
export function InternalErrorPage() {
  return <ErrorScreen />
}
