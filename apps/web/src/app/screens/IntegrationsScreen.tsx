import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { CatalogueItem, ConfigureAction } from '../../features/integrations/catalogueTypes'
import { IdeIntegrationModal } from '../../features/integrations/IdeIntegrationModal'
import { IntegrationsPage } from '../../features/integrations/IntegrationsPage'
import { setMeUpQuery } from '../../features/onboarding/api/onboarding'
import { setQuickSetup } from '../../features/shell/navigationStore'
import { apiKeyForProviderUser, apiKeyWithPassword, signsInWithProvider } from '../ideApiKey'
import { useShellContext } from '../shellContext'

interface IdeModalState {
  tool: string
  apiKey: string | null
}

/** /integrations: the catalogue, with each Set Up carried out here (routes and the shell's panels). */
export function IntegrationsScreen() {
  const ctx = useShellContext()
  const navigate = useNavigate()
  const [ide, setIde] = useState<IdeModalState | null>(null)
  const providerUser = signsInWithProvider(ctx.user.realm)
  // Where clients reach Trove: the IDE modal and the admins' set-up guides show it.
  const setMeUp = useQuery({ ...setMeUpQuery(null), enabled: ide !== null || ctx.user.admin })
  const guideTarget = { baseUrl: setMeUp.data?.baseUrl ?? window.location.origin, user: ctx.user.name }

  const openIde = async (tool: string) => {
    let apiKey: string | null = null
    // Packages §4, §8: for provider users the key is fetched before the modal opens; errors are only logged.
    if (providerUser) {
      apiKey = await apiKeyForProviderUser(ctx.user.name).catch((e: unknown) => {
        console.error(e)
        return null
      })
    }
    setIde({ tool, apiKey })
  }

  const onSetUp = (action: ConfigureAction, _item: CatalogueItem) => {
    if (action.type === 'redirect') void navigate({ href: action.payload.to })
    else if (action.actionName === 'quickRepository')
      setQuickSetup(true, { singlePackage: true, packageType: action.payload.packageType })
    else void openIde(action.payload.tool)
  }

  return (
    <>
      <IntegrationsPage admin={ctx.user.admin} onSetUp={onSetUp} guideTarget={guideTarget} />
      {ide && (
        <IdeIntegrationModal
          tool={ide.tool}
          onClose={() => setIde(null)}
          user={ctx.user.name}
          baseUrl={setMeUp.data?.baseUrl}
          apiKey={ide.apiKey}
          fetchKey={providerUser ? null : (password) => apiKeyWithPassword(ctx.user.name, password)}
        />
      )}
    </>
  )
}
