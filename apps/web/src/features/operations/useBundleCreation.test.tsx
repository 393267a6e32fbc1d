import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { useBundleCreation } from './useBundleCreation'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('the support bundle creation flow', () => {
  it('shows a placeholder while creating, then after 3000 ms drops it and reloads the list', async () => {
    let answer: (r: Response) => void = () => {}
    const fetchMock = stubFetch({
      '/ui/api/v1/ui/userSupport/generateBundle': () => new Promise<Response>((resolve) => (answer = resolve)),
    })
    vi.useFakeTimers()
    const reload = vi.fn()
    const { result } = renderHook(() => useBundleCreation(reload))

    let done: Promise<unknown> = Promise.resolve()
    act(() => {
      done = result.current.create('repository', { name: 'n', parameters: { thread_dump: { count: 2, interval: 10 } } })
    })
    expect(result.current.inProgress).toEqual({ repository: 1 })
    expect(result.current.placeholders).toEqual([expect.objectContaining({ name: 'n', status: 'in_progress' })])
    const [, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit]
    expect(JSON.parse(String(init.body))).toMatchObject({
      name: 'n',
      service: 'repository',
      parameters: { thread_dump: { count: 2, interval: 10 } },
    })

    await act(async () => {
      answer(json(201, { id: 'b1' }))
      await done
    })
    expect(result.current.inProgress).toEqual({ repository: 0 })
    expect(result.current.placeholders).toHaveLength(1)

    act(() => vi.advanceTimersByTime(2999))
    expect(reload).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(1))
    expect(reload).toHaveBeenCalledTimes(1)
    expect(result.current.placeholders).toEqual([])
  })

  it('swallows a failed create (false) and still reloads', async () => {
    stubFetch({ '/ui/api/v1/xray/api/v1/system/support/bundle': () => json(500, { errors: [{ status: 500, message: 'boom' }] }) })
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.useFakeTimers()
    const reload = vi.fn()
    const { result } = renderHook(() => useBundleCreation(reload))
    let created: unknown
    await act(async () => {
      created = await result.current.create('scanner', { name: 'x' })
    })
    expect(created).toBe(false)
    expect(error).toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(3000))
    expect(reload).toHaveBeenCalledTimes(1)
  })
})
