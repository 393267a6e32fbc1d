import { useNavigate, useRouteContext, useSearch } from '@tanstack/react-router'
import type { UserData } from '@trove/contracts/auth'
import { InvitationPage } from '../../features/auth/InvitationPage'
import { RegistrationPage } from '../../features/auth/RegistrationPage'
import { afterPassword } from '../guards'

function useAfterSignIn() {
  const navigate = useNavigate()
  return (user: UserData) => void navigate({ to: afterPassword(user.mfaStatus), replace: true })
}

export function RegistrationScreen() {
  return <RegistrationPage onSignedIn={useAfterSignIn()} />
}

export function InvitationScreen() {
  const { token } = useSearch({ from: '/_public/login/invitation' })
  const { invitationEmail } = useRouteContext({ from: '/_public/login/invitation' })
  return <InvitationPage token={token} email={invitationEmail} onSignedIn={useAfterSignIn()} />
}
