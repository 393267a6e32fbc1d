import { BarChart } from '@mantine/charts'
import { DASHBOARD_DAYS, type Dashboard } from '@trove/contracts/dashboard'
import { ChartCard, Empty } from './ChartCard'
import { AnchorLink } from './links'
import { shortDay } from './StorageCards'

/** Downloads and uploads per day (UTC days). */
export function TrafficCard({ data }: { data: Dashboard }) {
  const quiet = data.traffic.every((t) => t.downloads === 0 && t.uploads === 0)
  return (
    <ChartCard
      title={`Downloads and uploads per day, last ${DASHBOARD_DAYS} days`}
      action={
        <AnchorLink to="/packages/{-$packageId}/{-$versionId}" params={{}}>
          Packages
        </AnchorLink>
      }
    >
      {quiet ? (
        <Empty>No download or upload in the last {DASHBOARD_DAYS} days</Empty>
      ) : (
        <BarChart
          h={260}
          data={data.traffic.map((t) => ({ ...t, day: shortDay(t.day) }))}
          dataKey="day"
          series={[
            { name: 'downloads', label: 'Downloads', color: 'teal.6' },
            { name: 'uploads', label: 'Uploads', color: 'orange.5' },
          ]}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={(v) => v.toLocaleString('en')}
          barProps={{ radius: 3 }}
          yAxisProps={{ width: 50, allowDecimals: false }}
        />
      )}
    </ChartCard>
  )
}
