import { Limits } from '@trove/contracts/limits'
import { format, Messages } from '@trove/contracts/messages'

export type ChunkState = 'pending' | 'loaded' | 'failed'
export type ChunkFailure = 'missing' | 'timeout' | 'error'

/** A screen's code could not be loaded (shell §4.8, §8). */
export class ChunkLoadError extends Error {
  readonly code: string | undefined
  constructor(
    readonly chunkId: string,
    readonly type: ChunkFailure,
    options: { css?: boolean; cause?: unknown } = {},
  ) {
    super(format(Messages.chunkLoadFailed, { id: chunkId }), { cause: options.cause })
    this.name = 'ChunkLoadError'
    this.code = options.css ? Messages.cssChunkLoadFailedCode : undefined
  }
}

const states = new Map<string, ChunkState>()

/** The state of every chunk asked for so far. */
export function chunkState(id: string): ChunkState | undefined {
  return states.get(id)
}

/** Finds whether a failed chunk's file is missing (404) or failed otherwise. */
async function classify(error: unknown): Promise<ChunkFailure> {
  const url = /https?:\/\/\S+?\.(?:js|css)/.exec(String(error instanceof Error ? error.message : error))?.[0]
  if (!url) return 'error'
  try {
    const response = await fetch(url, { method: 'HEAD', cache: 'no-store' })
    return response.status === 404 ? 'missing' : 'error'
  } catch {
    return 'error'
  }
}

/**
 * Loads a screen's chunk, tracking pending → loaded | failed, with the specification's time limit.
 * A stylesheet that fails to preload is reported with the CSS_CHUNK_LOAD_FAILED code.
 */
export async function loadChunk<T>(
  id: string,
  importer: () => Promise<T>,
  timeoutMs: number = Limits.chunkScriptTimeoutMs,
): Promise<T> {
  states.set(id, 'pending')
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError(id, 'timeout')), timeoutMs)
  })
  try {
    const module = await Promise.race([importer(), timeout])
    states.set(id, 'loaded')
    return module
  } catch (error) {
    states.set(id, 'failed')
    if (error instanceof ChunkLoadError) throw error
    const css = error instanceof Error && /preload CSS/i.test(error.message)
    throw new ChunkLoadError(id, css ? 'error' : await classify(error), { css, cause: error })
  } finally {
    clearTimeout(timer)
  }
}
