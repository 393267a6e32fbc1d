import { Alert, Skeleton } from '@mantine/core'
import { useEffect, useRef, useState } from 'react'
import { loadMicrofrontend, mountMicrofrontend } from '../lib/microfrontend'

/** Mounts the micro-frontend at /ui/{path}; shows the loader's error text if it cannot. */
export function Microfrontend({
  path,
  props = {},
  localImport,
  label,
}: {
  path: string
  props?: Record<string, unknown>
  localImport?: () => Promise<unknown>
  label: string
}) {
  const ref = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<'loading' | 'mounted' | Error>('loading')
  const key = JSON.stringify(props)
  // biome-ignore lint/correctness/useExhaustiveDependencies: props are compared by value through key
  useEffect(() => {
    let unmount: (() => void) | undefined
    let cancelled = false
    setState('loading')
    loadMicrofrontend(path, { localImport })
      .then((module) => (ref.current ? mountMicrofrontend(module, ref.current, props) : undefined))
      .then((stop) => {
        if (cancelled) stop?.()
        else {
          unmount = stop
          setState('mounted')
        }
      })
      .catch((error: Error) => !cancelled && setState(error))
    return () => {
      cancelled = true
      unmount?.()
    }
  }, [path, key, localImport])
  return (
    <section aria-label={label} aria-busy={state === 'loading'}>
      {state === 'loading' && <Skeleton h={60} />}
      {state instanceof Error && (
        <Alert color="red" role="alert">
          {state.message}
        </Alert>
      )}
      <div ref={ref} />
    </section>
  )
}
