import { useMutation } from '@tanstack/react-query'
import type { InvitationRequest } from '@trove/contracts/auth'
import { apiRequest } from '../../../lib/api'

/** Mails an invitation link (valid 7 days, once) to join as a user or an administrator. */
export const inviteUser = (input: InvitationRequest) =>
  apiRequest<object>('/ui/admin/invitations', { method: 'POST', body: input })
export const useInviteUser = () => useMutation({ mutationFn: inviteUser })
