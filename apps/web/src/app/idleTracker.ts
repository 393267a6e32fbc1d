import { Limits } from '@trove/contracts/limits'

const ACTIVITY = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel'] as const

/**
 * Shell §4.5: after 60 s without input the user counts as idle; on the first input after that,
 * `onActiveAgain` runs once (the session-not-expired check). Answers a function that stops it.
 */
export function trackIdleness(
  onActiveAgain: () => void,
  options: { target?: EventTarget; thresholdMs?: number; now?: () => number } = {},
): () => void {
  const target = options.target ?? window
  const threshold = options.thresholdMs ?? Limits.idleThresholdMs
  const now = options.now ?? Date.now
  let lastActivity = now()
  const onActivity = () => {
    const at = now()
    if (at - lastActivity >= threshold) onActiveAgain()
    lastActivity = at
  }
  for (const type of ACTIVITY) target.addEventListener(type, onActivity, { passive: true })
  return () => {
    for (const type of ACTIVITY) target.removeEventListener(type, onActivity)
  }
}
