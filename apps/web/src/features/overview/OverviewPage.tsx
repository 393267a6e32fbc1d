import { PageHeader } from '../../ui/PageHeader'

/** Shell §2.1: a trivial page showing only the word Overview. */
export function OverviewPage() {
  return <PageHeader title="Overview" breadcrumbs={['Overview']} />
}
