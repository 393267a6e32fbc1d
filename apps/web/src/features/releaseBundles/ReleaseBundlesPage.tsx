import { Tabs } from '@mantine/core'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { type ComponentType, useEffect, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import type { BundleOrigin } from './api/listBundles'
import { BundleDrawer, type BundleRef } from './components/BundleDrawer'
import { ModuleOff } from './components/ModuleOff'
import type { RepositoryOption } from './components/SourceFields'
import { HistoryTab } from './HistoryTab'
import { SourceTab } from './SourceTab'
import { TargetTab } from './TargetTab'
import type { BundleTab } from './tabs'

export interface ReleaseBundlesPageProps {
  tab: BundleTab
  onTab: (tab: BundleTab) => void
  /** Administrators also see the targets and the retention policy */
  admin: boolean
  /** A node of the instance runs distribution (the start-up's services): when none does, no tab calls it */
  distributionRunning: boolean
  /** The top bar's release-bundles search: fills the lists' filter */
  query: string
  /** Repositories a new bundle's sources may name */
  repositories: RepositoryOption[]
  /** The console's markdown renderer, for release notes */
  Markdown: ComponentType<{ text: string }>
  /** The bundle the address names (its drawer opens on the tab's side) */
  opened?: BundleRef | null
  /** A bundle opened or closed (null): the address follows */
  onOpened?: (bundle: BundleRef | null, tab: BundleTab) => void
}

/** /release-bundles/{tab}: bundles made here, bundles received here, and the history of both. */
export function ReleaseBundlesPage({
  tab,
  onTab,
  admin,
  distributionRunning,
  query,
  repositories,
  Markdown,
  opened,
  onOpened,
}: ReleaseBundlesPageProps) {
  const [open, setOpen] = useState<{ origin: BundleOrigin; bundle: BundleRef } | null>(null)
  // The address's bundle, when it names one (a link, Back and Forward).
  const openedName = opened ? `${opened.name}\0${opened.version}` : null
  useEffect(() => {
    if (openedName === null) {
      if (onOpened) setOpen(null)
      return
    }
    const [name = '', version = ''] = openedName.split('\0')
    setOpen({ origin: tab === 'target' ? 'target' : 'source', bundle: { name, version } })
  }, [openedName, tab, onOpened])
  const onOpen = (origin: BundleOrigin, bundle: BundleRef) => {
    setOpen({ origin, bundle: { name: bundle.name, version: bundle.version } })
    onOpened?.({ name: bundle.name, version: bundle.version }, origin === 'target' ? 'target' : 'source')
  }
  const onClose = () => {
    setOpen(null)
    onOpened?.(null, tab)
  }
  return (
    <>
      <PageHeader title={ReleaseBundleMessages.releaseBundlesTitle} />
      <Tabs value={tab} onChange={(v) => v && onTab(v as BundleTab)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="source">Source</Tabs.Tab>
          <Tabs.Tab value="target">Target</Tabs.Tab>
          <Tabs.Tab value="target-history">Target history</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="source">
          {distributionRunning ? (
            <SourceTab admin={admin} initialQuery={query} repositories={repositories} Markdown={Markdown} onOpen={onOpen} />
          ) : (
            <ModuleOff />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="target">
          {distributionRunning ? <TargetTab admin={admin} initialQuery={query} onOpen={onOpen} /> : <ModuleOff />}
        </Tabs.Panel>
        <Tabs.Panel value="target-history">{distributionRunning ? <HistoryTab /> : <ModuleOff />}</Tabs.Panel>
      </Tabs>
      <BundleDrawer
        origin={open?.origin ?? 'source'}
        bundle={distributionRunning ? (open?.bundle ?? null) : null}
        onClose={onClose}
        Markdown={Markdown}
        repositories={repositories}
      />
    </>
  )
}
