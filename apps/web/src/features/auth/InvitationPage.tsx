import type { UserData } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'
import { AuthCard } from './AuthCard'
import { useAcceptInvitation } from './api/accounts'
import { NewAccountForm } from './NewAccountForm'

/** Opened from an invitation mail: choose a name and password for the invited address. */
export function InvitationPage({
  token,
  email,
  onSignedIn,
}: {
  token: string
  email: string
  onSignedIn: (user: UserData) => void
}) {
  const accept = useAcceptInvitation(token)
  return (
    <AuthCard
      title="Join Trove"
      subtitle={`You were invited as ${email}.`}
      error={accept.error ? accept.error.message || Messages.somethingWentWrong : null}
    >
      <NewAccountForm
        fixedEmail={email}
        submitLabel="Create account"
        mutation={accept}
        toInput={({ name, password }) => ({ name, password })}
        onSignedIn={onSignedIn}
      />
    </AuthCard>
  )
}
