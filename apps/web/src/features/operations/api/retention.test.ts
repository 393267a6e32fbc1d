import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../lib/api'
import { fetchRetentionEnabled } from './retention'

describe('the retention check', () => {
  it('answers the server value', async () => {
    expect(await fetchRetentionEnabled(async () => ({ enable: true }))).toBe(true)
  })

  it('takes 404 as disabled, without retrying or notifying', async () => {
    const fetcher = vi.fn(async () => {
      throw new ApiError(404, 'Not found')
    })
    const onFailure = vi.fn()
    expect(await fetchRetentionEnabled(fetcher, onFailure)).toBe(false)
    expect(fetcher).toHaveBeenCalledTimes(1)
    expect(onFailure).not.toHaveBeenCalled()
  })

  it('tries 3 times in all, then notifies with the spec text', async () => {
    const fetcher = vi.fn(async () => {
      throw new ApiError(500, 'boom')
    })
    const onFailure = vi.fn()
    expect(await fetchRetentionEnabled(fetcher, onFailure)).toBe(false)
    expect(fetcher).toHaveBeenCalledTimes(3)
    expect(onFailure).toHaveBeenCalledWith('There was an error while trying to fetch retention feature status: boom')
  })

  it('stops retrying once an attempt succeeds', async () => {
    const fetcher = vi.fn().mockRejectedValueOnce(new ApiError(502, 'x')).mockResolvedValueOnce({ enable: false })
    expect(await fetchRetentionEnabled(fetcher, vi.fn())).toBe(false)
    expect(fetcher).toHaveBeenCalledTimes(2)
  })
})
