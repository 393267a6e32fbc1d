import type { TreeNode } from '@trove/contracts/artifacts'
import { useCallback, useMemo, useRef, useState } from 'react'
import { ApiError } from '../../lib/api'
import { fetchChildren } from './api/artifactsApi'
import { fillGap, flatten, joinWindow, type Level, nodeId, ROOT, type Row } from './treeModel'

const PAGE = 200

const messageOf = (e: unknown) => (e instanceof ApiError && e.message ? e.message : 'This folder could not be read')

/** The parts of a node id: repository key and path ('' for the repository itself). */
export function addressOf(id: string): { repoKey: string; path: string } {
  const slash = id.indexOf('/')
  return { repoKey: id.slice(0, slash), path: id.slice(slash + 1).replace(/\/$/, '') }
}

/**
 * The tree's state: the levels loaded so far (each a page at a time), which nodes are expanded,
 * and the top level's filter. Levels load when first expanded.
 */
export function useTree() {
  const [levels, setLevels] = useState<Map<string, Level>>(() => new Map())
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set())
  const [filter, setFilterState] = useState('')
  // The levels as loaded so far, updated at once (state follows for rendering): loads in flight read it.
  const levelsRef = useRef(levels)
  const filterRef = useRef(filter)
  filterRef.current = filter

  const put = useCallback((id: string, update: (old: Level | undefined) => Level) => {
    const next = new Map(levelsRef.current)
    next.set(id, update(levelsRef.current.get(id)))
    levelsRef.current = next
    setLevels(next)
  }, [])

  const inFlight = useRef(new Map<string, Promise<Level>>())

  /**
   * Loads the next page of a level (the first when it has none); a call while one is on its way
   * waits for that one. Returns the level as it then is.
   */
  const loadPage = useCallback(
    (id: string, limit = PAGE): Promise<Level> => {
      const pending = inFlight.current.get(id)
      if (pending) return pending
      const current = levelsRef.current.get(id)
      if (current && !current.next && current.nodes.length > 0 && !current.error) return Promise.resolve(current)
      put(id, (old) => ({ nodes: old?.nodes ?? [], next: old?.next ?? null, loading: true }))
      const at = id === ROOT ? { path: '' } : addressOf(id)
      const load = (async () => {
        try {
          const page = await fetchChildren({
            ...at,
            after: current?.next ?? null,
            filter: id === ROOT ? filterRef.current : undefined,
            limit,
          })
          const result: Level = { nodes: [...(current?.nodes ?? []), ...page.nodes], next: page.next, loading: false }
          put(id, () => result)
          return result
        } catch (e) {
          const failed: Level = { nodes: current?.nodes ?? [], next: current?.next ?? null, loading: false, error: messageOf(e) }
          put(id, () => failed)
          return failed
        } finally {
          inFlight.current.delete(id)
        }
      })()
      inFlight.current.set(id, load)
      return load
    },
    [put],
  )

  const expand = useCallback(
    async (id: string) => {
      setExpanded((old) => new Set(old).add(id))
      if (!levelsRef.current.has(id)) await loadPage(id)
    },
    [loadPage],
  )
  const collapse = useCallback((id: string) => {
    setExpanded((old) => {
      const next = new Set(old)
      next.delete(id)
      return next
    })
  }, [])
  const toggle = useCallback((id: string) => (expanded.has(id) ? collapse(id) : void expand(id)), [expanded, expand, collapse])

  /** Forgets a level (after a change in it), reloading it when it is open. */
  const refresh = useCallback(
    async (id: string) => {
      inFlight.current.delete(id)
      const next = new Map(levelsRef.current)
      for (const key of levelsRef.current.keys()) if (key === id || (id !== ROOT && key.startsWith(id))) next.delete(key)
      levelsRef.current = next
      setLevels(next)
      if (id === ROOT || expanded.has(id)) await loadPage(id)
    },
    [expanded, loadPage],
  )

  const setFilter = useCallback(
    (value: string) => {
      filterRef.current = value
      setFilterState(value)
      void refresh(ROOT)
    },
    [refresh],
  )

  /** Loads the next page into a level's gap (see Level.gap). */
  const loadGap = useCallback(
    async (id: string) => {
      const key = `${id}\0gap`
      const current = levelsRef.current.get(id)
      if (!current?.gap || inFlight.current.has(key)) return
      const at = id === ROOT ? { path: '' } : addressOf(id)
      const load = (async () => {
        try {
          const page = await fetchChildren({
            ...at,
            after: current.gap?.after,
            filter: id === ROOT ? filterRef.current : undefined,
            limit: PAGE,
          })
          put(id, (old) => (old ? fillGap(old, page) : old) as Level)
        } catch (e) {
          put(id, (old) => ({ ...(old as Level), error: messageOf(e) }))
        } finally {
          inFlight.current.delete(key)
        }
        return levelsRef.current.get(id) as Level
      })()
      inFlight.current.set(key, load)
      await load
    },
    [put],
  )

  /**
   * A level that shows the child named `name`, without storing it: the level as loaded when it
   * does, else a window of children from that name on after a gap (the top level, a handful of
   * repositories: its first thousand, with a window only beyond them).
   */
  const around = useCallback(async (id: string, name: string): Promise<Level> => {
    const pending = inFlight.current.get(id)
    if (pending) await pending
    const level = levelsRef.current.get(id)
    const shows = (l: Level | undefined) => l?.nodes.some((n) => n.name === name) === true
    if (level && !level.error && (shows(level) || (!level.next && !level.gap))) return level
    const at = id === ROOT ? { path: '' } : addressOf(id)
    const filter = id === ROOT ? filterRef.current : undefined
    try {
      if (level && !level.error) {
        return joinWindow(
          { nodes: level.nodes, next: level.next },
          await fetchChildren({ ...at, from: name, filter, limit: PAGE }),
        )
      }
      if (id === ROOT) {
        const head = await fetchChildren({ ...at, filter, limit: 1000 })
        if (!head.next || head.nodes.some((n) => n.name === name)) return { nodes: head.nodes, next: head.next, loading: false }
        return joinWindow(head, await fetchChildren({ ...at, from: name, filter, limit: PAGE }))
      }
      // Below the top, only the window: what comes before it loads as its gap comes into view.
      const window = await fetchChildren({ ...at, from: name, limit: PAGE })
      return { nodes: window.nodes, next: window.next, loading: false, gap: { index: 0, after: null } }
    } catch (e) {
      return { nodes: level?.nodes ?? [], next: level?.next ?? null, loading: false, error: messageOf(e) }
    }
  }, [])

  /**
   * Opens the tree at a deep link: every level on the way (known from the link) loads at once,
   * each around the child the next step needs, and they are shown together. Returns the id of the
   * node, or null when it is not there.
   */
  const reveal = useCallback(
    async (ancestors: string[], target: string): Promise<string | null> => {
      const chain = [ROOT, ...ancestors]
      const lastName = (id: string) => id.replace(/\/$/, '').split('/').pop() as string
      const levels = await Promise.all(chain.map((id, i) => around(id, lastName(chain[i + 1] ?? target))))
      const next = new Map(levelsRef.current)
      for (const [i, level] of levels.entries()) next.set(chain[i] as string, level)
      levelsRef.current = next
      setLevels(next)
      setExpanded((old) => {
        const open = new Set(old)
        for (const id of ancestors) open.add(id)
        return open
      })
      for (const [i, level] of levels.entries()) {
        const wanted = chain[i + 1] ?? target
        const found =
          level.nodes.find((n) => nodeId(n) === wanted) ??
          (i === chain.length - 1 ? level.nodes.find((n) => nodeId(n) === `${wanted}/`) : undefined)
        if (!found) return null
        if (i === chain.length - 1) {
          // A repository or folder opened by its link shows its children.
          if (found.type !== 'file') await expand(nodeId(found))
          return nodeId(found)
        }
      }
      return null
    },
    [around, expand],
  )

  const rows: Row[] = useMemo(() => flatten(levels, expanded), [levels, expanded])
  const findNode = useCallback(
    (id: string): TreeNode | undefined => {
      for (const level of levels.values()) {
        const n = level.nodes.find((x) => nodeId(x) === id)
        if (n) return n
      }
      return undefined
    },
    [levels],
  )
  return { rows, levels, expanded, filter, setFilter, loadPage, loadGap, expand, collapse, toggle, refresh, reveal, findNode }
}
