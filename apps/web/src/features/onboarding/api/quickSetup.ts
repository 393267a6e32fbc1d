import type { QuickSetupRequest, QuickSetupResponse } from '@trove/contracts/repositories'
import { apiRequest } from '../../../lib/api'

/** POST /ui/api/v1/ui/onboarding/quickSetup: the sample repositories of several package types, all or none. */
export const quickSetup = (request: QuickSetupRequest) =>
  apiRequest<QuickSetupResponse>('/ui/onboarding/quickSetup', { method: 'POST', body: request })
