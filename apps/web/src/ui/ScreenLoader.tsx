import { Center, Loader } from '@mantine/core'

/** Shown while a screen's chunk or data is still loading (after the router's pending delay). */
export function ScreenLoader() {
  return (
    <Center mih={240} aria-busy="true" aria-label="Loading">
      <Loader size="md" />
    </Center>
  )
}
