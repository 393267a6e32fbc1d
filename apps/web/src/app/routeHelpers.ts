import type { QueryClient } from '@tanstack/react-query'
import { lazyRouteComponent, redirect } from '@tanstack/react-router'
import { logout } from '../features/auth/api/logout'
import { notify } from '../lib/notify'
import { loadChunk } from './chunks'
import type { GuardResult } from './guards'

const chunkIds = new WeakMap<object, string>()

/** The chunk id a route component was made with by `screen` (the route-table tests read it). */
export const chunkIdOf = (component: unknown): string | undefined =>
  component && typeof component === 'function' ? chunkIds.get(component) : undefined

/** A screen as a lazily loaded chunk, tracked by the chunk loader (state, time limit, errors). */
export function screen<M extends Record<string, unknown>>(id: string, importer: () => Promise<M>, exportName: keyof M & string) {
  const component = lazyRouteComponent(() => loadChunk(id, importer), exportName)
  chunkIds.set(component, id)
  return component
}

/** Carries out a guard's answer; "with logout" ends the session before going to sign in. */
export async function follow(result: GuardResult, queryClient: QueryClient): Promise<void> {
  if (result.kind === 'allow') return
  if (result.notice) notify({ color: 'red', message: result.notice, autoClose: 4500 })
  if (result.logout) {
    await logout()
    queryClient.clear()
    ;(await import('./shellRuntime')).resetStartup()
    ;(await import('../features/packages/packagesState')).resetPackagesState()
  }
  throw redirect({ href: hrefOf(result.to, result.search), replace: true })
}

function hrefOf(to: string, search?: Record<string, unknown>): string {
  const query = search ? new URLSearchParams(Object.entries(search).map(([k, v]) => [k, String(v)])).toString() : ''
  return `/ui${to}${query ? `?${query}` : ''}`
}
