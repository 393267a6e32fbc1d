import type { CloudVendor, IntegrationCategory } from '@trove/contracts/messages'
import type { PackageTypeName } from '@trove/contracts/repositoryConstants'
import type { IntegrationGlyph } from './IntegrationIcon'

/** What an administrator's Set Up does (packages §3 configureAction): go to a route, or run a named action. */
export type ConfigureAction =
  | { type: 'redirect'; payload: { to: string } }
  | { type: 'action'; actionName: 'quickRepository'; payload: { packageType: PackageTypeName } }
  | { type: 'action'; actionName: 'ideIntegration'; payload: { tool: string } }

/** One card of the catalogue (packages §3 "Catalogue item"). */
export interface CatalogueItem {
  id: string
  label: string
  icon: IntegrationGlyph
  /** How much the icon is enlarged in its card; 1 when absent. */
  iconScale?: number
  /** 1 (first) to 10; 10 when absent. */
  rank?: number
  categories: IntegrationCategory[]
  vendors: CloudVendor[]
  documentationLink: string
  configureAction?: ConfigureAction
}

/** A group of the catalogue (packages §3 "Groups"): how its data module is organised. */
export interface CatalogueGroup {
  id: string
  label: string
  items: CatalogueItem[]
}
