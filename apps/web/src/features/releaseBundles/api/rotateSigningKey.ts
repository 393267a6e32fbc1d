import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { SigningKey } from '@trove/contracts/distribution'
import { distributionRequest } from './distributionRequest'
import { signingKeysQuery } from './listSigningKeys'

/**
 * POST /keys/rotate: a new active key signs from now on; the others stay published, so bundles
 * signed with them still verify. Targets are told the new key before the next distribution.
 */
export const rotateSigningKey = () => distributionRequest<SigningKey>('/keys/rotate', { method: 'POST' })

export function useRotateSigningKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: rotateSigningKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signingKeysQuery().queryKey }),
  })
}
