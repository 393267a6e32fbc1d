import { SET_ME_UP_TOKEN_EXPIRES_IN } from '@trove/contracts/setMeUp'
import { SetMeUp } from '../features/onboarding/SetMeUp'
import { createToken } from '../features/profile/api/tokens'
import { useRepositories } from '../features/repositories/api/listRepositories'

/** The set-me-up panel's content: the repositories the user reads, and the token button's call. */
export function SetMeUpContent({ user, repoKey }: { user: string; repoKey: string | null }) {
  const repositories = useRepositories().data ?? []
  const generateToken = async () =>
    (await createToken({ user, expiresIn: SET_ME_UP_TOKEN_EXPIRES_IN, description: 'Set Me Up', scope: 'deploy' })).access_token
  return <SetMeUp user={user} repoKey={repoKey} repositories={repositories} generateToken={generateToken} />
}
