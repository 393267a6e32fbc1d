import { useSyncExternalStore } from 'react'

// The project chosen in the top bar (null: all projects), kept for the browser tab's session.
const KEY = 'trove.selectedProject'
const listeners = new Set<() => void>()

export function selectedProject(): string | null {
  try {
    return sessionStorage.getItem(KEY)
  } catch {
    return null
  }
}

export function selectProject(key: string | null): void {
  if (key) sessionStorage.setItem(KEY, key)
  else sessionStorage.removeItem(KEY)
  for (const listener of listeners) listener()
}

export function useSelectedProject(): string | null {
  return useSyncExternalStore((listener) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }, selectedProject)
}
