import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api'

/** The console's postback that approves a waiting command-line client (shell §7.1). */
export const approveCliLogin = (session: string) =>
  apiRequest<Record<string, never>>('/access/api/v2/authentication/jfrog_client_login/response', {
    method: 'POST',
    absolute: true,
    body: { session },
  })

export const useApproveCliLogin = () => useMutation({ mutationFn: approveCliLogin })
