import { Limits } from '@trove/contracts/limits'
import { format, Messages } from '@trove/contracts/messages'

/**
 * A console plugin: an ES module served under /ui/{path} whose default export (or `mount` export)
 * mounts it into an element and may return a function that unmounts it.
 */
export interface MicrofrontendModule {
  mount: (element: HTMLElement, props: Record<string, unknown>) => undefined | (() => void) | Promise<undefined | (() => void)>
}

interface Cached {
  module: Promise<MicrofrontendModule>
  expires: number
}
const cache = new Map<string, Cached>()

/** The address of a micro-frontend: under the console's base path, /ui/{path}. */
export function microfrontendUrl(path: string): string {
  return `/ui/${path.replace(/^\/+/, '')}`
}

function withLimit<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)
  })
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
}

function asModule(loaded: unknown): MicrofrontendModule {
  const m = loaded as { mount?: unknown; default?: unknown }
  const mount = typeof m.mount === 'function' ? m.mount : ((m.default as { mount?: unknown } | undefined)?.mount ?? m.default)
  if (typeof mount !== 'function') throw new Error('the module exports no mount function')
  return { mount: mount as MicrofrontendModule['mount'] }
}

export interface LoadOptions {
  /** A bundled copy to fall back on when the served one cannot be fetched. */
  localImport?: () => Promise<unknown>
  /** The mount limit (§9: 100000 ms). */
  timeoutMs?: number
  /** How the module is fetched (tests replace it). */
  importer?: (url: string) => Promise<unknown>
  now?: () => number
}

const nativeImport = (url: string) => import(/* @vite-ignore */ url)

/**
 * Shell §1, §8, §9: loads the micro-frontend at /ui/{path}, kept for a week; if it cannot be
 * fetched, logs 'Could not fetch microfrontend application' and falls back to the local import,
 * else fails with 'Error: failed resolving microfrontend {path}'.
 */
export function loadMicrofrontend(path: string, options: LoadOptions = {}): Promise<MicrofrontendModule> {
  const now = (options.now ?? Date.now)()
  const hit = cache.get(path)
  if (hit && hit.expires > now) return hit.module
  const timeout = options.timeoutMs ?? Limits.microfrontendMountLimitMs
  const importer = options.importer ?? nativeImport
  const module = withLimit(importer(microfrontendUrl(path)), timeout, `Loading ${path}`)
    .then(asModule)
    .catch(async (error: unknown) => {
      console.error(Messages.microfrontendFetchFailed, error)
      if (options.localImport) return asModule(await options.localImport())
      throw new Error(format(Messages.microfrontendResolveFailed, { path }), { cause: error })
    })
  cache.set(path, { module, expires: now + Limits.microfrontendCacheTtlMs })
  // A failure is not kept: the next visit tries again.
  module.catch(() => {
    if (cache.get(path)?.module === module) cache.delete(path)
  })
  return module
}

/** Mounts a loaded micro-frontend within the time limit; a failure logs 'Could not setup microfrontend application'. */
export async function mountMicrofrontend(
  module: MicrofrontendModule,
  element: HTMLElement,
  props: Record<string, unknown> = {},
  timeoutMs: number = Limits.microfrontendMountLimitMs,
): Promise<() => void> {
  try {
    const unmount = await withLimit(Promise.resolve(module.mount(element, props)), timeoutMs, 'Mounting')
    return typeof unmount === 'function' ? unmount : () => element.replaceChildren()
  } catch (error) {
    console.error(Messages.microfrontendSetupFailed, error)
    throw error
  }
}

/** Forgets every cached micro-frontend (tests). */
export function clearMicrofrontendCache(): void {
  cache.clear()
}
