import type { NotificationData } from '@mantine/notifications'
import { useSyncExternalStore } from 'react'

// The notifications package (and its host component) load on first use, so they stay out of the
// code every first page needs: the sign-in page has a budget.
let wanted = false
const listeners = new Set<() => void>()

/** Shows a notification. */
export function notify(data: NotificationData): void {
  if (!wanted) {
    wanted = true
    for (const listener of listeners) listener()
  }
  void import('@mantine/notifications').then(({ notifications }) =>
    notifications.show({ closeButtonProps: { 'aria-label': 'Close notification' }, ...data }),
  )
}

/** True once something has been notified: the root then mounts the notification host. */
export function useNotificationsWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => wanted,
  )
}
