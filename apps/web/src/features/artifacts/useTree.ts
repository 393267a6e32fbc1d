import type { TreeNode } from '@trove/contracts/artifacts'
import { useCallback, useMemo, useRef, useState } from 'react'
import { ApiError } from '../../lib/api'
import { fetchChildren } from './api/artifactsApi'
import { flatten, type Level, nodeId, ROOT, type Row } from './treeModel'

const PAGE = 200
/** A deep link's ancestors are searched for their next step this many children at a time. */
const SEEK_PAGE = 1000
/** How far a deep link searches a folder for its next step before giving up on showing it. */
const SEEK_MAX = 100_000

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

  /**
   * Opens the tree at a deep link: each ancestor is expanded and paged through until the next step
   * is loaded. Returns the id of the selected node, or null when it is not there.
   */
  const reveal = useCallback(
    async (ancestors: string[], target: string): Promise<string | null> => {
      const chain = [ROOT, ...ancestors]
      for (let i = 0; i < chain.length; i++) {
        const id = chain[i] as string
        const wanted = chain[i + 1] ?? target
        if (id !== ROOT) setExpanded((old) => new Set(old).add(id))
        const has = (l: Level | undefined) => l?.nodes.some((n) => nodeId(n) === wanted || nodeId(n) === `${wanted}/`)
        let level = inFlight.current.get(id) ? await inFlight.current.get(id) : levelsRef.current.get(id)
        if (!level || (level.nodes.length === 0 && level.next === null && !level.error))
          level = await loadPage(id, id === ROOT ? PAGE : SEEK_PAGE)
        while (!has(level) && level?.next && (level.nodes.length ?? 0) < SEEK_MAX) level = await loadPage(id, SEEK_PAGE)
        if (!has(level)) return null
        if (i === chain.length - 1) {
          const found = level?.nodes.find((n) => nodeId(n) === target) ?? level?.nodes.find((n) => nodeId(n) === `${target}/`)
          if (!found) return null
          // A repository or folder opened by its link shows its children.
          if (found.type !== 'file') await expand(nodeId(found))
          return nodeId(found)
        }
      }
      return null
    },
    [loadPage, expand],
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
  return { rows, levels, expanded, filter, setFilter, loadPage, expand, collapse, toggle, refresh, reveal, findNode }
}
