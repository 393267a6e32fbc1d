import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useCurrentUser } from '../../features/auth/api/currentUser'
import { LoginPage } from '../../features/auth/LoginPage'
import { CliVerifyPage } from '../../features/cliLogin/CliVerifyPage'
import { CliWaitingNotice } from '../../features/cliLogin/CliWaitingNotice'
import { clearCliLogin, storedCliLogin } from '../cliLogin'
import { afterPassword } from '../guards'

/**
 * /login/cli-registration: the sign-in screen a command-line client sends its user to. It names
 * the waiting client; after sign-in (password, or single sign-on from the same screen) the landing
 * opens the verify form, where the user approves it.
 */
export function CliRegistrationScreen() {
  const navigate = useNavigate()
  const [cli] = useState(storedCliLogin)
  return (
    <LoginPage
      notice={cli ? <CliWaitingNotice clientName={cli.name} session={cli.session} /> : null}
      onSignedIn={(user) => void navigate({ to: afterPassword(user.mfaStatus), replace: true })}
      onPasswordExpired={(userName) =>
        void navigate({ to: '/login/change-password/{-$userName}', params: { userName }, replace: true })
      }
    />
  )
}

export function CliVerifyScreen() {
  const navigate = useNavigate()
  const user = useCurrentUser().data
  // Read once: approving clears the storage, and the success message must stay on screen.
  const [cli] = useState(storedCliLogin)
  if (!cli || !user) return null
  return (
    <CliVerifyPage
      session={cli.session}
      clientName={cli.name}
      userName={user.name}
      onApproved={() => clearCliLogin()}
      onFinished={() => {
        clearCliLogin()
        void navigate({ to: '/', replace: true })
      }}
    />
  )
}
