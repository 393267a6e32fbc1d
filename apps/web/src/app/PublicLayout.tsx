import { Center } from '@mantine/core'
import { Outlet } from '@tanstack/react-router'

/** Sign-in and error pages: centred on a quiet background, without the application frame. */
export function PublicLayout() {
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Outlet />
    </Center>
  )
}
