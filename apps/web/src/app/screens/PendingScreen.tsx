import { useMatches } from '@tanstack/react-router'
import { ScreenPending } from '../../features/screens/ScreenPending'

/** A registered route whose screen belongs to a later version: shows its title and says so. */
export function PendingScreen() {
  const matches = useMatches()
  const title = [...matches].reverse().find((m) => m.staticData.title)?.staticData.title ?? ''
  return <ScreenPending title={title} />
}
