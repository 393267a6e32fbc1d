import { Stack } from '@mantine/core'
import type { MdsRequest } from '@trove/contracts/packages'
import { PageHeader } from '../../ui/PageHeader'
import { PackageDetails } from './components/PackageDetails'
import { PackageList } from './components/PackageList'
import { type ListFilters, PackageListFilters } from './components/PackageListFilters'
import { VersionDetails } from './components/VersionDetails'
import { levelOf } from './packageRules'
import type { VersionQuery } from './versionQuery'

export interface PackagesPageProps {
  packageId?: string
  versionId?: string
  /** The list call: the search from the query string, or the most recently updated packages. */
  listRequest: MdsRequest | null
  /** Nothing searched or filtered: the list on arrival. */
  arrival: boolean
  listFilters: ListFilters
  onListFilters: (next: ListFilters) => void
  countRequest: MdsRequest
  versionQuery: VersionQuery
  /** Extra package selections the licence and features allow (licences, operational risk). */
  packageFields: string
  admin: boolean
  scannerPresent: boolean
  securityLicense: boolean
  legacyVersionView: boolean
  onOpenPackage: (packageId: string) => void
  onOpenVersion: (packageId: string, version: string) => void
  onNotFound: () => void
}

/** /packages/:packageId?/:versionId?: the package list, a package, or a version (packages §2). */
export function PackagesPage(props: PackagesPageProps) {
  const level = levelOf(props.packageId, props.versionId)
  return (
    <Stack gap={0}>
      {level === 'list' && <PageHeader title="Packages" />}
      {level === 'list' && (
        <PackageList
          request={props.listRequest}
          countRequest={props.countRequest}
          admin={props.admin}
          arrival={props.arrival}
          filters={<PackageListFilters value={props.listFilters} onChange={props.onListFilters} />}
          onOpenPackage={props.onOpenPackage}
        />
      )}
      {level === 'package' && props.packageId && (
        <PackageDetails
          key={props.packageId}
          packageId={props.packageId}
          packageFields={props.packageFields}
          versionQuery={props.versionQuery}
          onOpenVersion={props.onOpenVersion}
          onNotFound={props.onNotFound}
        />
      )}
      {level === 'version' && props.packageId && props.versionId && (
        <VersionDetails
          key={`${props.packageId}@${props.versionId}`}
          packageId={props.packageId}
          packageFields={props.packageFields}
          versionName={props.versionId}
          scannerPresent={props.scannerPresent}
          securityLicense={props.securityLicense}
          legacy={props.legacyVersionView}
          onOpenPackage={props.onOpenPackage}
          onNotFound={props.onNotFound}
        />
      )}
    </Stack>
  )
}
