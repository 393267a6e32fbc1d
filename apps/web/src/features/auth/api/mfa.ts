import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MfaCodeRequest, MfaEnrollment, UserData } from '@trove/contracts/auth'
import { apiRequest } from '../../../lib/api'
import { rememberSignIn } from './login'

export const getMfaEnrollment = () => apiRequest<MfaEnrollment>('/ui/auth/mfa/enroll', { handleAuthErrors: true })

/** A new secret each time it is fetched: fetched once per visit of the enrolment screen. */
export const mfaEnrollmentQuery = () =>
  queryOptions({
    queryKey: ['auth', 'mfa', 'enrollment'],
    queryFn: getMfaEnrollment,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  })

export const useMfaEnrollment = () => useQuery(mfaEnrollmentQuery())

/** A code, with the current password when a signed-in user enrols from the profile. */
export interface CodeInput {
  otp: string
  password?: string | undefined
}

const postCode =
  (path: string) =>
  ({ otp, password }: CodeInput) =>
    apiRequest<UserData>(path, {
      method: 'POST',
      body: { otp, authenticatorType: 'google', ...(password ? { password } : {}) } satisfies MfaCodeRequest,
      handleAuthErrors: true,
    })

export const confirmMfaEnrollment = postCode('/ui/auth/mfa/enroll')
export const verifyOtp = postCode('/ui/auth/mfa/verify')

function useCodeMutation(send: (input: CodeInput) => Promise<UserData>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: send, onSuccess: (user) => rememberSignIn(queryClient, user) })
}

export const useConfirmMfaEnrollment = () => useCodeMutation(confirmMfaEnrollment)
export const useVerifyOtp = () => useCodeMutation(verifyOtp)
