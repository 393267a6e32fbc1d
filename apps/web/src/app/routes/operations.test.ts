import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { createAppRouter } from '../router'

describe('the operations screens', () => {
  it('live under the admin layout (its guard and menu) at the admin paths', () => {
    const router = createAppRouter(new QueryClient())
    const paths = Object.values(router.routesById).map((r) => r.fullPath)
    expect(paths).toEqual(
      expect.arrayContaining(['/admin/monitoring/service-status', '/admin/monitoring/system_logs', '/admin/support-zone']),
    )
    const parent = (id: string) => (router.routesById as Record<string, { parentRoute?: { id: string } }>)[id]?.parentRoute?.id
    expect(parent('/_app/admin/support-zone')).toBe('/_app/admin')
  })
})
