import { useNavigate } from '@tanstack/react-router'
import { LoginPage } from '../../features/auth/LoginPage'
import { afterPassword } from '../guards'

export function LoginScreen() {
  const navigate = useNavigate()
  return (
    <LoginPage
      onSignedIn={(user) => void navigate({ to: afterPassword(user.mfaStatus), replace: true })}
      onPasswordExpired={(userName) =>
        void navigate({ to: '/login/change-password/{-$userName}', params: { userName }, replace: true })
      }
    />
  )
}
