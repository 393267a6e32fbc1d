import { format, Messages } from '@trove/contracts/messages'
import { useCallback, useEffect, useRef, useState } from 'react'
import { getLogData } from './api/logs'

/** The viewer keeps this many lines; older ones scroll away. */
export const MAX_LINES = 5000
const TICK_MS = 1000

export interface LogTail {
  lines: string[]
  /** Nothing read yet for this selection. */
  waiting: boolean
  error: string | null
  paused: boolean
  /** Milliseconds until the next poll. */
  remainingMs: number
  pause: () => void
  resume: () => void
  refreshNow: () => void
}

/**
 * Tails one log file: the first poll brings the last lines, every later one only what was
 * appended since (the server's read position goes back as file_size), every refresh period,
 * with pause, resume and refresh now.
 */
export function useLogTail(service: string, nodeId: string | null, file: string | null, refreshMs: number): LogTail {
  const [lines, setLines] = useState<string[]>([])
  const [waiting, setWaiting] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [paused, setPaused] = useState(false)
  const [remainingMs, setRemainingMs] = useState(refreshMs)
  const position = useRef<{ size?: number; id?: string }>({})
  const generation = useRef(0)
  const inFlight = useRef(false)

  const poll = useCallback(async () => {
    if (!nodeId || !file || inFlight.current) return
    const mine = generation.current
    inFlight.current = true
    try {
      const data = await getLogData(service, { nodeId, id: file, fileSize: position.current.size, fileId: position.current.id })
      if (mine !== generation.current) return
      position.current = { size: data.file_size, id: data.file_id }
      const added: string[] = []
      if (data.rotated) added.push(`--- ${Messages.logRotated} ---`)
      if (data.skipped_bytes > 0) added.push(format(Messages.logSkipped, { bytes: data.skipped_bytes }))
      if (data.log_content) added.push(...data.log_content.replace(/\n$/, '').split('\n'))
      if (added.length > 0) setLines((prev) => [...prev, ...added].slice(-MAX_LINES))
      setError(null)
      setWaiting(false)
    } catch (e) {
      if (mine === generation.current) setError(e instanceof Error ? e.message || Messages.somethingWentWrong : String(e))
    } finally {
      inFlight.current = false
      if (mine === generation.current) setRemainingMs(refreshMs)
    }
  }, [service, nodeId, file, refreshMs])

  // A new selection starts over: clear, read the last lines at once.
  useEffect(() => {
    generation.current += 1
    inFlight.current = false
    position.current = {}
    setLines([])
    setWaiting(true)
    setError(null)
    setRemainingMs(refreshMs)
    void poll()
  }, [poll, refreshMs])

  // The countdown; at zero, poll.
  useEffect(() => {
    if (paused || !nodeId || !file) return
    const timer = setInterval(() => setRemainingMs((ms) => Math.max(0, ms - TICK_MS)), TICK_MS)
    return () => clearInterval(timer)
  }, [paused, nodeId, file])
  useEffect(() => {
    if (remainingMs === 0 && !paused) void poll()
  }, [remainingMs, paused, poll])

  return {
    lines,
    waiting,
    error,
    paused,
    remainingMs,
    pause: () => setPaused(true),
    resume: () => setPaused(false),
    refreshNow: () => void poll(),
  }
}
