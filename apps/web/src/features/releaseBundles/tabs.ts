/** The release-bundles screen's tabs, the route's `activeTab` (shell §2.5). */
export const BUNDLE_TABS = ['source', 'target', 'target-history'] as const
export type BundleTab = (typeof BUNDLE_TABS)[number]

export const isBundleTab = (tab: string): tab is BundleTab => (BUNDLE_TABS as readonly string[]).includes(tab)
