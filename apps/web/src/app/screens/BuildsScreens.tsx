import { useNavigate, useParams, useSearch } from '@tanstack/react-router'
import { useCallback } from 'react'
import { BuildRunPage, RUN_TABS, type RunTab } from '../../features/builds/BuildRunPage'
import { BuildRunsPage } from '../../features/builds/BuildRunsPage'
import { BuildsPage } from '../../features/builds/BuildsPage'

/** Search params of the builds screens. */
export interface BuildsSearch {
  /** Shell §2.4: set when an old `#/builds/…` link was rewritten to this path. */
  jenkinsRedirect?: boolean
  /** The top bar's builds search (packages §2): fills the list's filter. */
  query?: string
  /** The run screen's tab (modules when absent). */
  tab?: string
}

/** /builds: the top bar's builds search arrives as ?query= and fills the filter (a new search refills it). */
export function BuildsScreen() {
  const search = useSearch({ strict: false }) as BuildsSearch
  return <BuildsPage key={search.query ?? ''} initialFilter={search.query ?? ''} />
}

export function BuildRunsScreen() {
  const { name } = useParams({ strict: false }) as { name: string }
  const navigate = useNavigate()
  const onNotFound = useCallback(() => void navigate({ to: '/404', replace: true }), [navigate])
  const onBuildGone = useCallback(() => void navigate({ to: '/builds' }), [navigate])
  return <BuildRunsPage key={name} name={name} onNotFound={onNotFound} onBuildGone={onBuildGone} />
}

export function BuildRunScreen() {
  const { name, number } = useParams({ strict: false }) as { name: string; number: string }
  const search = useSearch({ strict: false }) as BuildsSearch
  const navigate = useNavigate()
  const tab: RunTab = RUN_TABS.includes(search.tab as RunTab) ? (search.tab as RunTab) : 'modules'
  const onTab = useCallback(
    (next: RunTab) =>
      void navigate({
        to: '/builds/$name/$number',
        params: { name, number },
        search: next === 'modules' ? {} : { tab: next },
        replace: true,
      }),
    [navigate, name, number],
  )
  const onNotFound = useCallback(() => void navigate({ to: '/404', replace: true }), [navigate])
  const onDeleted = useCallback(() => void navigate({ to: '/builds/$name', params: { name } }), [navigate, name])
  return (
    <BuildRunPage
      key={`${name}\u0000${number}`}
      name={name}
      number={number}
      tab={tab}
      onTab={onTab}
      onNotFound={onNotFound}
      onDeleted={onDeleted}
    />
  )
}
