import { useNavigate, useParams, useSearch } from '@tanstack/react-router'
import type { UserData } from '@trove/contracts/auth'
import { ChangePasswordPage } from '../../features/auth/ChangePasswordPage'
import { ForgotPasswordPage } from '../../features/auth/ForgotPasswordPage'
import { ResetPasswordPage } from '../../features/auth/ResetPasswordPage'
import { afterPassword } from '../guards'

function useAfterSignIn() {
  const navigate = useNavigate()
  return (user: UserData) => void navigate({ to: afterPassword(user.mfaStatus), replace: true })
}

export function ForgotPasswordScreen() {
  return <ForgotPasswordPage />
}

export function ResetPasswordScreen() {
  const { key } = useSearch({ from: '/_public/login/reset-password' })
  return <ResetPasswordPage resetKey={key} onSignedIn={useAfterSignIn()} />
}

export function ChangePasswordScreen() {
  const { userName } = useParams({ from: '/_public/login/change-password/{-$userName}' })
  return <ChangePasswordPage userName={userName ?? ''} onSignedIn={useAfterSignIn()} />
}
