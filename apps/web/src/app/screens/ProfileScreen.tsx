import { useCurrentUser } from '../../features/auth/api/currentUser'
import { MfaEnrollmentPanel } from '../../features/auth/MfaEnrollPage'
import { ProfilePage } from '../../features/profile/ProfilePage'

export function ProfileScreen() {
  const user = useCurrentUser().data
  if (!user) return null
  return (
    <ProfilePage
      userName={user.name}
      passwordless={user.realm !== 'internal'}
      renderMfaEnrollment={(onDone, password) => <MfaEnrollmentPanel onEnrolled={onDone} password={password} />}
    />
  )
}
