import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { legacyBuildTarget } from '../../features/builds/buildRules'
import { loadChunk } from '../chunks'
import type { BuildsSearch } from '../screens/BuildsScreens'

const validateSearch = (search: Record<string, unknown>): BuildsSearch => ({
  jenkinsRedirect: search.jenkinsRedirect === true || search.jenkinsRedirect === 'true' ? true : undefined,
  query: typeof search.query === 'string' && search.query !== '' ? search.query : undefined,
  tab: typeof search.tab === 'string' && search.tab !== '' ? search.tab : undefined,
})

const screen = (name: 'BuildsScreen' | 'BuildRunsScreen' | 'BuildRunScreen') =>
  lazyRouteComponent(() => loadChunk('builds', () => import('../screens/BuildsScreens')), name)

/**
 * Where an old builds link lands (shell §2.4): the rewritten path with jenkinsRedirect=true opens
 * the build or run it names, under its own URL; what the old console added after the run number
 * (start time, tab) is dropped.
 */
function legacy(segments: string[]): never {
  const { name, number } = legacyBuildTarget(segments)
  if (name && number) throw redirect({ to: '/builds/$name/$number', params: { name, number }, replace: true })
  if (name) throw redirect({ to: '/builds/$name', params: { name }, replace: true })
  throw redirect({ to: '/builds', replace: true })
}

/** The builds screens: the list, a build's runs, one run, and old links' landing. */
export function buildsRoutes<P extends AnyRoute>(parent: P) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/builds',
    staticData: { name: 'builds', title: 'Builds' },
    validateSearch,
    beforeLoad: ({ search }) => {
      if (search.jenkinsRedirect) legacy([])
    },
    component: screen('BuildsScreen'),
  })
  const runs = createRoute({
    getParentRoute: () => parent,
    path: '/builds/$name',
    staticData: { name: 'builds.build', title: 'Build' },
    validateSearch,
    beforeLoad: ({ params, search }) => {
      if (search.jenkinsRedirect) legacy([params.name])
    },
    component: screen('BuildRunsScreen'),
  })
  const run = createRoute({
    getParentRoute: () => parent,
    path: '/builds/$name/$number',
    staticData: { name: 'builds.run', title: 'Build run' },
    validateSearch,
    beforeLoad: ({ params, search }) => {
      if (search.jenkinsRedirect) legacy([params.name, params.number])
    },
    component: screen('BuildRunScreen'),
  })
  // The old console's run links went on after the number; only a rewritten old link may. A child
  // of the run route (a sibling splat would also match the bare run path, and win).
  const older = createRoute({
    getParentRoute: () => run,
    path: '$',
    beforeLoad: ({ params, search }) => {
      if (!params._splat) return
      if (search.jenkinsRedirect) legacy([params.name, params.number])
      throw redirect({ to: '/404', replace: true })
    },
  })
  return [list, runs, run.addChildren([older])] as const
}
