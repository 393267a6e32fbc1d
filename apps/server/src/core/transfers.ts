/**
 * Large transfers in progress on this node: uploads past the size hashed inline, downloads of
 * large blobs. Work that can wait (checksums left for later) waits until the node has been quiet
 * for a moment, so that a push or a pull keeps the CPU and memory it needs.
 */
let active = 0
let lastEnded = 0

/** Marks a transfer as started; returns the function that marks it ended (once, however often called). */
export function transferStarted(): () => void {
  active++
  let ended = false
  return () => {
    if (ended) return
    ended = true
    active--
    lastEnded = Date.now()
  }
}

/** True when no large transfer runs and none ended within the last `ms`. */
export function quietFor(ms: number, now = Date.now()): boolean {
  return active === 0 && now - lastEnded >= ms
}
