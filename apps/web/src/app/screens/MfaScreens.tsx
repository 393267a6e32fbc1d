import { useNavigate } from '@tanstack/react-router'
import { MfaEnrollPage } from '../../features/auth/MfaEnrollPage'
import { OtpLoginPage } from '../../features/auth/OtpLoginPage'
import { POST_LOGIN_PATH } from '../guards'

function useSignInNavigation() {
  const navigate = useNavigate()
  return {
    done: () => void navigate({ to: POST_LOGIN_PATH, replace: true }),
    restart: () => void navigate({ to: '/login', replace: true }),
  }
}

export function OtpLoginScreen() {
  const { done, restart } = useSignInNavigation()
  return <OtpLoginPage onSignedIn={done} onRestart={restart} />
}

export function MfaEnrollScreen() {
  const { done, restart } = useSignInNavigation()
  return <MfaEnrollPage onEnrolled={done} onRestart={restart} />
}
