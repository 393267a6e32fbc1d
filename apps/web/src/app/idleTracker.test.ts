import { describe, expect, it, vi } from 'vitest'
import { trackIdleness } from './idleTracker'

describe('trackIdleness', () => {
  it('calls back on the first input after 60 s without any, and not before', () => {
    let clock = 0
    const target = new EventTarget()
    const onActiveAgain = vi.fn()
    const stop = trackIdleness(onActiveAgain, { target, now: () => clock })
    clock = 30_000
    target.dispatchEvent(new Event('mousemove'))
    clock = 89_999
    target.dispatchEvent(new Event('keydown'))
    expect(onActiveAgain).not.toHaveBeenCalled()
    clock = 149_999
    target.dispatchEvent(new Event('keydown'))
    expect(onActiveAgain).toHaveBeenCalledTimes(1)
    clock = 150_000
    target.dispatchEvent(new Event('mousedown'))
    expect(onActiveAgain).toHaveBeenCalledTimes(1)

    stop()
    clock = 400_000
    target.dispatchEvent(new Event('keydown'))
    expect(onActiveAgain).toHaveBeenCalledTimes(1)
  })
})
