import { ActionIcon, Autocomplete, Group, Select, Tooltip } from '@mantine/core'
import { QUICK_SEARCH_PACKAGE_TYPES } from '@trove/contracts/searchConstants'
import { forwardRef, useEffect, useMemo, useRef, useState } from 'react'
import { loadRecentSearches, type RecentSearch, rememberSearch, userKey } from './recentSearches'
import { buildSearchQuery, parseSearchQuery } from './searchModel'
import {
  downgradeArchive,
  resetForType,
  type SearchContext,
  type SearchTypeId,
  searchDisabledReason,
  searchTarget,
  searchTypeById,
  searchTypeOptions,
  typeDisabledReason,
} from './searchTypes'

export type SearchTarget = { path: string } | { routeName: string }

export interface SearchBarProps {
  ctx: SearchContext
  /** The type that follows the route (§4). */
  routeType: SearchTypeId
  /** The query string the current screen shows (from its URL), to start from. */
  currentQuery: string
  currentPath: string
  username: string | null
  /** Runs a search: the caller navigates to the target with the query string (and the project). */
  onSearch: (target: SearchTarget, queryString: string) => void
  /** While on the results screen of the type, typing updates the results as it goes. */
  onLiveSearch?: (queryString: string) => void
}

const LIVE_DELAY_MS = 120

/** The top bar's search: a type, the query text (key:value filters, §3), recent searches. */
export const SearchBar = forwardRef<HTMLInputElement, SearchBarProps>(function SearchBar(
  { ctx, routeType, currentQuery, currentPath, username, onSearch, onLiveSearch },
  ref,
) {
  const [typeId, setTypeId] = useState<SearchTypeId>(routeType)
  const [text, setText] = useState(currentQuery)
  const [recent, setRecent] = useState<RecentSearch[]>([])
  // Recent searches close as soon as results show (a search ran, or live results came).
  const [recentOpen, setRecentOpen] = useState(false)
  // §4: the type follows the route.
  useEffect(() => setTypeId(routeType), [routeType])
  // What the results screen was last asked to show: a URL change from elsewhere replaces the text.
  const lastSent = useRef(currentQuery)
  useEffect(() => {
    if (currentQuery === lastSent.current) return
    lastSent.current = currentQuery
    setText(currentQuery)
  }, [currentQuery])
  useEffect(() => {
    let live = true
    void loadRecentSearches().then((all) => live && setRecent(all[userKey(username)] ?? []))
    return () => {
      live = false
    }
  }, [username])

  const type = searchTypeById(typeId)
  const types = searchTypeOptions(ctx, routeType)
  const model = useMemo(() => parseSearchQuery(text), [text])
  const disabled = searchDisabledReason(type, model, ctx)

  // Live results while on the type's own results screen.
  const onLive = useRef(onLiveSearch)
  onLive.current = onLiveSearch
  useEffect(() => {
    if (!onLive.current || text === lastSent.current) return
    const timer = setTimeout(() => {
      lastSent.current = text
      setRecentOpen(false)
      onLive.current?.(disabled ? '' : buildSearchQuery(model))
    }, LIVE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text, model, disabled])

  const run = async (queryText: string, forType = type) => {
    const m = downgradeArchive(parseSearchQuery(queryText), ctx)
    if (searchDisabledReason(forType, m, ctx)) return
    setRecentOpen(false)
    const queryString = buildSearchQuery(m)
    // §4: the recent search is stored first, then the search navigates.
    const list = await rememberSearch(username, {
      type: forType.id,
      queryString,
      searchModel: m,
      context: ctx.projectKey,
    }).catch(() => recent)
    setRecent(list)
    lastSent.current = queryString
    onSearch(searchTarget(forType, currentPath), queryString)
  }

  const recentHere = recent.filter((r) => r.type === typeId && r.context === ctx.projectKey)
  const packageType = model.filters.packageTypes?.length === 1 ? (model.filters.packageTypes[0] as string) : 'All'

  return (
    <search>
      <form
        data-tour="search"
        onSubmit={(e) => {
          e.preventDefault()
          void run(text)
        }}
      >
        <Group gap={4} wrap="nowrap">
          <Select
            aria-label="Search type"
            size="sm"
            w={130}
            allowDeselect={false}
            value={typeId}
            data={types.map((t) => ({ value: t.id, label: t.label, disabled: typeDisabledReason(t, ctx) !== null }))}
            onChange={(v) => {
              if (!v || v === typeId) return
              setTypeId(v as SearchTypeId)
              // §4: changing the type resets the model but keeps the name.
              setText(buildSearchQuery(resetForType(model)))
            }}
          />
          {typeId === 'packages' && (
            <Select
              aria-label="Package type"
              size="sm"
              w={100}
              allowDeselect={false}
              value={packageType}
              data={[...QUICK_SEARCH_PACKAGE_TYPES]}
              onChange={(v) => {
                if (!v) return
                const next = { ...model, filters: { ...model.filters, packageTypes: v === 'All' ? undefined : [v] } }
                setText(buildSearchQuery(next))
              }}
            />
          )}
          <Autocomplete
            ref={ref}
            name="q"
            aria-label={type.placeholder}
            placeholder={`${type.placeholder}  ( / )`}
            data-search-type={typeId}
            w={{ base: 160, lg: 320 }}
            size="sm"
            value={text}
            onChange={setText}
            data={[...new Set(recentHere.map((r) => r.queryString))]}
            dropdownOpened={recentOpen}
            onDropdownOpen={() => setRecentOpen(true)}
            onDropdownClose={() => setRecentOpen(false)}
            onOptionSubmit={(value) => {
              setText(value)
              void run(value)
            }}
            comboboxProps={{ withinPortal: true }}
          />
          <Tooltip label={disabled ?? 'Search'} withinPortal>
            <ActionIcon type="submit" size="lg" variant="filled" aria-label="Search" disabled={disabled !== null}>
              <svg
                aria-hidden="true"
                width="16"
                height="16"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.5"
              >
                <circle cx="11" cy="11" r="7" />
                <path d="m20 20-4-4" strokeLinecap="round" />
              </svg>
            </ActionIcon>
          </Tooltip>
        </Group>
      </form>
    </search>
  )
})
