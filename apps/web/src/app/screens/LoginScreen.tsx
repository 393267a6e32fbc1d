import { useNavigate } from '@tanstack/react-router'
import { LoginPage } from '../../features/auth/LoginPage'
import { POST_LOGIN_PATH } from '../guards'

export function LoginScreen() {
  const navigate = useNavigate()
  return <LoginPage onSignedIn={() => void navigate({ to: POST_LOGIN_PATH, replace: true })} />
}
