import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useCurrentUser } from '../../features/auth/api/currentUser'
import { CliVerifyPage } from '../../features/cliLogin/CliVerifyPage'
import { clearCliLogin, storedCliLogin } from '../cliLogin'

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
