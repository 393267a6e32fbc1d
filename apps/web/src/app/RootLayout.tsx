import { Outlet, useMatches } from '@tanstack/react-router'
import { lazy, Suspense, useEffect } from 'react'
import { useFooter } from '../features/auth/api/footer'
import { useNotificationsWanted } from '../lib/notify'
import { pageTitle } from './pageTitle'

// The notification host is not needed to paint the first screen, so it loads after it.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })))

/** The root of every page: keeps the document title in step with the screen, hosts notifications. */
export function RootLayout() {
  const matches = useMatches()
  const footer = useFooter()
  const notificationsWanted = useNotificationsWanted()
  const title = [...matches].reverse().find((m) => m.staticData.title)?.staticData.title
  useEffect(() => {
    document.title = pageTitle(title, footer.data?.serverName)
  }, [title, footer.data?.serverName])
  return (
    <>
      {notificationsWanted && (
        <Suspense fallback={null}>
          <Notifications position="top-right" />
        </Suspense>
      )}
      <Outlet />
    </>
  )
}
