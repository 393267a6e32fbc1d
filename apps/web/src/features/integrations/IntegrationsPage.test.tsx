import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { CATALOGUE } from './catalogue'
import type { CatalogueItem } from './catalogueTypes'
import { IntegrationsPage } from './IntegrationsPage'

const ITEMS: CatalogueItem[] = [
  {
    id: 'alpha',
    label: 'Alpha Git',
    icon: 'git',
    rank: 3,
    categories: ['sourceControl'],
    vendors: [],
    documentationLink: 'https://docs.test/alpha',
    configureAction: { type: 'redirect', payload: { to: '/integrations/vendor/list/alpha' } },
  },
  {
    id: 'beta',
    label: 'Beta Cloud',
    icon: 'cloud',
    categories: ['cloudNative'],
    vendors: ['aws'],
    documentationLink: 'https://docs.test/beta',
  },
  {
    id: 'gamma',
    label: 'Gamma IDE',
    icon: 'code',
    rank: 1,
    categories: ['ide'],
    vendors: ['azure'],
    documentationLink: 'https://docs.test/gamma',
    configureAction: { type: 'action', actionName: 'ideIntegration', payload: { tool: 'Gamma IDE' } },
  },
  {
    id: 'delta',
    label: 'Delta CI',
    icon: 'pipeline',
    rank: 7,
    categories: ['cicd', 'cloudNative'],
    vendors: ['gcp'],
    documentationLink: 'https://docs.test/delta',
  },
]

const TARGET = { baseUrl: 'https://trove.example.com', user: 'ada' }

const cards = () =>
  within(screen.getByRole('list', { name: ScreenMessages.integrationsTitle }))
    .getAllByRole('listitem')
    .map((li) => li.textContent)
const count = () => screen.getByText(/^\d+$/, { selector: '.mantine-Badge-label' }).textContent

async function renderPage(admin: boolean) {
  const onSetUp = vi.fn()
  await renderWithProviders(<IntegrationsPage admin={admin} onSetUp={onSetUp} guideTarget={TARGET} items={ITEMS} />)
  return { onSetUp, user: userEvent.setup() }
}

describe('the integrations catalogue', { timeout: 20_000 }, () => {
  it('shows the cards by rank with their count, and the side panel with both sections open', async () => {
    await renderPage(true)
    expect(screen.getByRole('heading', { name: ScreenMessages.integrationsTitle })).toBeInTheDocument()
    expect(cards()).toEqual(['Gamma IDE', 'Alpha Git', 'Delta CI', 'Beta Cloud'])
    expect(count()).toBe('4')
    expect(screen.getByRole('checkbox', { name: ScreenMessages.integrationFilterAll })).toBeChecked()
    const vendors = screen.getByRole('group', { name: ScreenMessages.integrationCloudVendor })
    for (const vendor of ['AWS', 'Azure', 'GCP'])
      expect(within(vendors).getByRole('checkbox', { name: vendor })).not.toBeChecked()
  })

  it('filters by search 300 ms after typing stops, and the clear icon empties the box', async () => {
    const { user } = await renderPage(true)
    const box = screen.getByPlaceholderText(Messages.searchIntegrations)
    await user.type(box, 'ga')
    const typed = Date.now()
    expect(cards()).toHaveLength(4)
    await waitFor(() => expect(cards()).toEqual(['Gamma IDE']))
    expect(Date.now() - typed).toBeGreaterThanOrEqual(250)
    expect(count()).toBe('1')
    await user.click(screen.getByRole('button', { name: 'Clear search' }))
    expect(box).toHaveValue('')
    await waitFor(() => expect(cards()).toHaveLength(4))
  })

  it('filters by categories (any shared) and vendor together; All clears the categories', async () => {
    const { user } = await renderPage(true)
    const all = screen.getByRole('checkbox', { name: ScreenMessages.integrationFilterAll })
    await user.click(screen.getByRole('checkbox', { name: 'Cloud Native' }))
    expect(all).not.toBeChecked()
    expect(cards()).toEqual(['Delta CI', 'Beta Cloud'])
    await user.click(screen.getByRole('checkbox', { name: 'IDE' }))
    expect(cards()).toEqual(['Gamma IDE', 'Delta CI', 'Beta Cloud'])
    await user.click(screen.getByRole('checkbox', { name: 'GCP' }))
    expect(cards()).toEqual(['Delta CI'])
    await user.click(all)
    expect(all).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'IDE' })).not.toBeChecked()
    expect(cards()).toEqual(['Delta CI'])
  })

  it('says so when nothing matches', async () => {
    const { user } = await renderPage(false)
    await user.click(screen.getByRole('checkbox', { name: 'Source Control' }))
    await user.click(screen.getByRole('checkbox', { name: 'AWS' }))
    expect(screen.getByText(Messages.noIntegrationsFound)).toBeInTheDocument()
    expect(screen.getByText(Messages.noIntegrationsHint)).toBeInTheDocument()
    expect(count()).toBe('0')
  })

  it('closes the side panel and brings it back with the filter button', async () => {
    const { user } = await renderPage(true)
    await user.click(screen.getByRole('button', { name: 'Close filters' }))
    expect(screen.queryByRole('complementary', { name: ScreenMessages.integrationFilters })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: ScreenMessages.integrationFilters }))
    expect(screen.getByRole('complementary', { name: ScreenMessages.integrationFilters })).toHaveStyle({ width: '314px' })
  })

  it('gives an admin Learn More and Set Up for items with a configure action, and runs the action', async () => {
    const { user, onSetUp } = await renderPage(true)
    await user.click(screen.getByRole('button', { name: 'Alpha Git' }))
    const dialog = await screen.findByRole('dialog', { name: 'Alpha Git' })
    const learn = within(dialog).getByRole('link', { name: Messages.learnMore })
    expect(learn).toHaveAttribute('href', 'https://docs.test/alpha')
    expect(learn).toHaveAttribute('target', '_blank')
    expect(learn).toHaveAttribute('rel', 'noopener noreferrer')
    await user.click(within(dialog).getByRole('button', { name: Messages.setUp }))
    expect(onSetUp).toHaveBeenCalledWith(ITEMS[0]?.configureAction, ITEMS[0])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    // An item without a configure action is a documentation link, for an admin too.
    expect(screen.getByRole('link', { name: 'Beta Cloud' })).toHaveAttribute('rel', 'noopener noreferrer')
  })

  it('gives everyone else only documentation links, opened in a new tab without opener or referrer', async () => {
    await renderPage(false)
    expect(screen.queryAllByRole('button', { name: /Alpha|Gamma/ })).toEqual([])
    for (const item of ITEMS) {
      const link = screen.getByRole('link', { name: item.label })
      expect(link).toHaveAttribute('href', item.documentationLink)
      expect(link).toHaveAttribute('target', '_blank')
      expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    }
  })

  it("shows an admin what the integration does and its exact steps, with this instance's URL in the snippet", async () => {
    const onSetUp = vi.fn()
    await renderWithProviders(<IntegrationsPage admin onSetUp={onSetUp} guideTarget={TARGET} />)
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'GitHub Actions' }))
    const dialog = await screen.findByRole('dialog', { name: 'GitHub Actions' })
    expect(within(dialog).getByText(/^Publishes what a pipeline builds to a Trove repository/)).toBeInTheDocument()
    const steps = within(within(dialog).getByRole('list', { name: 'Steps' })).getAllByRole('listitem')
    expect(steps.length).toBeGreaterThanOrEqual(3)
    expect(within(dialog).getByText('.github/workflows/build.yml')).toBeInTheDocument()
    const code = within(dialog).getByText(/secrets\.TROVE_TOKEN/)
    expect(code.textContent).toContain('https://trove.example.com/api/build')
    expect(within(dialog).getByRole('button', { name: 'Copy .github/workflows/build.yml' })).toBeInTheDocument()
  })
})

describe('the catalogue', () => {
  it('has a set-up action and a guide with steps for every item', async () => {
    const { integrationGuide } = await import('@trove/contracts/integrationGuides')
    for (const item of CATALOGUE) {
      expect(item.configureAction, item.id).toBeDefined()
      const guide = integrationGuide(item.id, item.label, TARGET)
      expect(guide?.does, item.id).toMatch(/\w/)
      expect(guide?.steps.length, item.id).toBeGreaterThanOrEqual(2)
    }
  })
})
