import { Anchor } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { UserData } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'
import { AuthCard } from './AuthCard'
import { useRegister } from './api/accounts'
import { NewAccountForm } from './NewAccountForm'

export function RegistrationPage({ onSignedIn }: { onSignedIn: (user: UserData) => void }) {
  const registration = useRegister()
  return (
    <AuthCard
      title="Create an account"
      error={registration.error ? registration.error.message || Messages.somethingWentWrong : null}
    >
      <NewAccountForm submitLabel="Create account" mutation={registration} toInput={(v) => v} onSignedIn={onSignedIn} />
      <Anchor component={Link} to="/login" size="sm">
        Back to sign in
      </Anchor>
    </AuthCard>
  )
}
