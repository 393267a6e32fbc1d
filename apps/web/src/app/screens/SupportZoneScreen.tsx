import { useCurrentUser } from '../../features/auth/api/currentUser'
import { SupportZonePage } from '../../features/operations/SupportZonePage'

export function SupportZoneScreen() {
  const user = useCurrentUser().data
  return <SupportZonePage admin={Boolean(user?.admin)} />
}
