import { useMutation } from '@tanstack/react-query'
import type { Profile } from '@trove/contracts/auth'
import { apiRequest } from '../../../lib/api'

export const fetchProfile = (password: string) =>
  apiRequest<Profile>('/ui/userProfile', { method: 'POST', body: { password }, handleAuthErrors: true })

export const updateEmail = ({ email, password }: { email: string | null; password: string }) =>
  apiRequest<Profile>('/ui/userProfile', { method: 'PUT', body: { email, password }, handleAuthErrors: true })

export const useUnlockProfile = () => useMutation({ mutationFn: fetchProfile })
export const useUpdateEmail = () => useMutation({ mutationFn: updateEmail })
