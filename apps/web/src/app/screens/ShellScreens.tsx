import { useQuery } from '@tanstack/react-query'
import { useNavigate, useParams } from '@tanstack/react-router'
import { useCallback } from 'react'
import { AccountPortalSettings } from '../../features/accountPortal/AccountPortalSettings'
import { GeneralConfigPage } from '../../features/adminConfig/GeneralConfigPage'
import { ReverseProxyFormPage } from '../../features/adminConfig/ReverseProxyPages'
import { QuickSetupForm } from '../../features/onboarding/QuickSetupForm'
import { AdminMenuPage } from '../../features/shell/AdminMenuPage'
import { topologyNodesQuery } from '../../features/shell/api/topology'
import { isAdmin } from '../../features/shell/model'
import { useNavigationState } from '../../features/shell/navigationStore'
import { QuickSetupPage, QuickSetupSteps } from '../../features/shell/Panels'
import { TeaserPage } from '../../features/shell/TeaserPage'
import { isTrialInstance, teaserInvitation } from '../../features/shell/teaserInvitation'
import { demoAdminTeaser, MODULE_TEASERS, type Teaser as TeaserData } from '../../features/shell/teasers'
import { useShellContext } from '../shellContext'

/** General Settings with the account portal card (shell §2.1 /user/my-jfrog-redirect). */
export function GeneralConfigScreen() {
  return (
    <GeneralConfigPage>
      <AccountPortalSettings />
    </GeneralConfigPage>
  )
}
export { LicensesPage as LicensesScreen } from '../../features/adminConfig/LicensesPage'
export { ReverseProxyListPage as ReverseProxyListScreen } from '../../features/adminConfig/ReverseProxyPages'
export { SecurityConfigPage as SecurityConfigScreen } from '../../features/adminConfig/SecurityConfigPage'
export { TopologyPage as TopologyScreen } from '../../features/shell/TopologyPage'

export function AdminMenuScreen() {
  return <AdminMenuPage ctx={useShellContext()} />
}

export function NewReverseProxyScreen() {
  const navigate = useNavigate()
  return (
    <ReverseProxyFormPage
      onSaved={(name) => void navigate({ to: '/admin/proxies/configuration/edit/$proxyName', params: { proxyName: name } })}
    />
  )
}

export function EditReverseProxyScreen() {
  const { proxyName } = useParams({ from: '/_app/admin/proxies/configuration/edit/$proxyName' })
  const navigate = useNavigate()
  const onNotFound = useCallback(() => void navigate({ to: '/404', replace: true }), [navigate])
  return (
    <ReverseProxyFormPage
      key={proxyName}
      proxyName={proxyName}
      onNotFound={onNotFound}
      onSaved={(name) =>
        void navigate({ to: '/admin/proxies/configuration/edit/$proxyName', params: { proxyName: name }, replace: true })
      }
    />
  )
}

/** A teaser with what it says here: the nodes are read only for an admin looking at a module that is off. */
function Teaser({ teaser }: { teaser: TeaserData }) {
  const c = useShellContext()
  const offer = teaser.offer
  const needsNodes = offer.kind === 'module' && !c.services.has(offer.service) && isAdmin(c) && !isTrialInstance(c)
  const nodes = useQuery({ ...topologyNodesQuery(), enabled: needsNodes }).data
  return <TeaserPage teaser={teaser} invitation={teaserInvitation(teaser, c, nodes)} />
}

export const PipelinesTeaserScreen = () => <Teaser teaser={MODULE_TEASERS.pipelines} />
export const SecurityTeaserScreen = () => <Teaser teaser={MODULE_TEASERS.securityCompliance} />
export const TopologyTeaserScreen = () => <Teaser teaser={MODULE_TEASERS.topology} />
export const ReleaseBundlesTeaserScreen = () => <Teaser teaser={MODULE_TEASERS.releaseBundles} />

/** /demo/admin/:requiredAdminPath: the teaser of that admin module (§2.3); the guard sent unknown paths away. */
export function DemoAdminScreen() {
  const { _splat } = useParams({ from: '/_app/demo/admin/$' })
  const teaser = demoAdminTeaser(_splat ?? '')
  return teaser ? <Teaser teaser={teaser} /> : null
}

export function QuickSetupScreen() {
  const nav = useNavigationState()
  return (
    <QuickSetupPage>
      <QuickSetupForm initialType={nav.predefinedPackageType} nextSteps={<QuickSetupSteps />} />
    </QuickSetupPage>
  )
}
