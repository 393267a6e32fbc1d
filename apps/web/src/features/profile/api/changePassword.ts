import { useMutation } from '@tanstack/react-query'
import type { ChangePasswordRequest } from '@trove/contracts/passwords'
import { apiRequest } from '../../../lib/api'

/** Changes the signed-in user's password with the current one; this session stays signed in. */
export const changePassword = (input: ChangePasswordRequest) =>
  apiRequest<void>('/ui/auth/changePassword', {
    method: 'POST',
    query: { prefix: 'changePassword' },
    body: input,
    handleAuthErrors: true,
  })

export const useChangePassword = () => useMutation({ mutationFn: changePassword })
