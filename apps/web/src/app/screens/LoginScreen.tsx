import { useNavigate, useSearch } from '@tanstack/react-router'
import { LoginPage } from '../../features/auth/LoginPage'
import { ssoErrorText } from '../../features/auth/loginScreenRules'
import { afterPassword } from '../guards'

export function LoginScreen() {
  const navigate = useNavigate()
  const { ssoError, ssoUser } = useSearch({ from: '/_public/login/' })
  return (
    <LoginPage
      ssoError={ssoErrorText(ssoError, ssoUser)}
      onSignedIn={(user) => void navigate({ to: afterPassword(user.mfaStatus), replace: true })}
      onPasswordExpired={(userName) =>
        void navigate({ to: '/login/change-password/{-$userName}', params: { userName }, replace: true })
      }
    />
  )
}
