import { screen } from '@testing-library/react'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { AccountPortalRedirectPage } from './AccountPortalRedirectPage'

afterEach(() => vi.unstubAllGlobals())
const PORTAL = '/ui/api/v1/ui/accountPortal'

describe('AccountPortalRedirectPage', () => {
  it('sends the browser to the portal an administrator set', async () => {
    stubFetch({ [PORTAL]: () => json(200, { url: 'https://accounts.example.org/me' }) })
    const leave = vi.fn()
    await renderWithProviders(<AccountPortalRedirectPage leave={leave} />)
    expect(await screen.findByText(ScreenMessages.accountPortalLeaving)).toBeInTheDocument()
    expect(leave).toHaveBeenCalledWith('https://accounts.example.org/me')
    expect(leave).toHaveBeenCalledTimes(1)
  })

  it('says plainly that none is set, and goes nowhere', async () => {
    stubFetch({ [PORTAL]: () => json(200, { url: '' }) })
    const leave = vi.fn()
    await renderWithProviders(<AccountPortalRedirectPage leave={leave} />)
    expect(await screen.findByText(ScreenMessages.accountPortalNotSet)).toBeInTheDocument()
    expect(leave).not.toHaveBeenCalled()
  })
})
