import { AreaChart, BarChart } from '@mantine/charts'
import { ColorSwatch, Group, Stack, Text } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { DASHBOARD_DAYS, type Dashboard } from '@trove/contracts/dashboard'
import { formatSize } from '../../../lib/format'
import { ChartCard, Empty } from './ChartCard'
import { AnchorLink, treePathOf } from './links'

/** One colour per drawn repository, in the order of their size; the rest in grey. */
export const SERIES_COLOURS = ['blue.6', 'teal.6', 'violet.6', 'orange.6', 'cyan.6', 'grape.6', 'lime.6', 'pink.6']
const OTHER = 'other'
const colourOf = (i: number) => SERIES_COLOURS[i % SERIES_COLOURS.length] ?? 'blue.6'
/** A repository key in the bars' axis, cut to fit its width (the list below gives it whole). */
const AXIS_CHARS = 14
const shortKey = (key: string) => (key.length > AXIS_CHARS ? `${key.slice(0, AXIS_CHARS - 1)}…` : key)
const plural = (n: number, one: string) => `${n.toLocaleString('en')} ${n === 1 ? one : `${one}s`}`
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' })

/** Storage per repository, largest first, each a link to its tree. */
export function StorageBarsCard({ data }: { data: Dashboard }) {
  const navigate = useNavigate()
  const repos = data.repositories
  const open = (repoKey: string) => void navigate({ to: '/artifacts/browse/$', params: { _splat: treePathOf(repoKey) } })
  return (
    <ChartCard
      title="Storage by repository"
      action={data.scope === 'instance' ? <AnchorLink to="/admin/repositories">All repositories</AnchorLink> : null}
    >
      {repos.length === 0 ? (
        <Empty>Nothing stored yet</Empty>
      ) : (
        <Stack gap="sm">
          <BarChart
            h={Math.max(68, repos.length * 34)}
            maxBarWidth={24}
            data={repos.map((r, i) => ({ repo: r.repoKey, bytes: r.bytes, color: colourOf(i) }))}
            dataKey="repo"
            orientation="vertical"
            series={[{ name: 'bytes', label: 'Stored', color: 'blue.6' }]}
            valueFormatter={(v) => formatSize(v)}
            yAxisProps={{ width: 120, tickFormatter: shortKey }}
            gridAxis="none"
            withXAxis={false}
            barProps={{
              radius: 4,
              cursor: 'pointer',
              onClick: (entry: { repo?: string; payload?: { repo?: string } }) => {
                const key = entry.payload?.repo ?? entry.repo
                if (key) open(key)
              },
            }}
          />
          <Stack gap={4} aria-label="Repositories by storage">
            {repos.map((r, i) => (
              <Group key={r.repoKey} justify="space-between" gap="xs" wrap="nowrap">
                <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
                  <ColorSwatch color={`var(--mantine-color-${colourOf(i).replace('.', '-')})`} size={10} withShadow={false} />
                  <AnchorLink to="/artifacts/browse/$" params={{ _splat: treePathOf(r.repoKey) }} size="sm" truncate>
                    {r.repoKey}
                  </AnchorLink>
                </Group>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatSize(r.bytes)} · {plural(r.files, 'file')}
                </Text>
              </Group>
            ))}
          </Stack>
        </Stack>
      )}
    </ChartCard>
  )
}

/**
 * The growth chart's series and rows. recharts reads a dotted data key as a path (a.b → a's b)
 * and repository keys may hold dots, so each series is keyed by its position and labelled with
 * the repository's key.
 */
export function storageGrowth(data: Dashboard) {
  const repos = data.repositories
  const hasOther = data.storage.some((d) => (d.byRepository[OTHER] ?? 0) > 0)
  const series = [
    ...repos.map((r, i) => ({ name: `r${i}`, label: r.repoKey, color: colourOf(i) })),
    ...(hasOther ? [{ name: OTHER, label: 'Other repositories', color: 'gray.5' }] : []),
  ]
  const rows = data.storage.map((d) => ({
    day: shortDay(d.day),
    ...Object.fromEntries(repos.map((r, i) => [`r${i}`, d.byRepository[r.repoKey] ?? 0])),
    ...(hasOther ? { [OTHER]: d.byRepository[OTHER] ?? 0 } : {}),
  }))
  return { series, rows }
}

/** Bytes stored at the end of each day, stacked by repository. */
export function StorageGrowthCard({ data }: { data: Dashboard }) {
  const repos = data.repositories
  const { series, rows: growth } = storageGrowth(data)
  return (
    <ChartCard title={`Storage growth, last ${DASHBOARD_DAYS} days`}>
      {repos.length === 0 ? (
        <Empty>Nothing stored yet</Empty>
      ) : (
        <AreaChart
          // The legend of nine series takes its share of this.
          h={360}
          data={growth}
          dataKey="day"
          type="stacked"
          series={series}
          valueFormatter={(v) => formatSize(v)}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          curveType="monotone"
          withDots={false}
          fillOpacity={0.35}
          // Wide enough for "130.4 GB" on one line.
          yAxisProps={{ width: 84 }}
        />
      )}
    </ChartCard>
  )
}

export { shortDay }
