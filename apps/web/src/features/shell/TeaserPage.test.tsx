import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { TeaserPage } from './TeaserPage'
import { DEMO_ADMIN_TEASERS, FREE_TRIAL_URL, MODULE_TEASERS } from './teasers'

const trial = (label: string) =>
  ({ kind: 'trial', text: `Start a free trial to try ${label}.`, button: 'Start a free trial' }) as const

describe('a teaser page (§2.3, §2.5)', () => {
  it.each(Object.entries(DEMO_ADMIN_TEASERS))(
    '%s shows its label, description, Learn more, bullets or cards and, on a trial, the free-trial invitation',
    async (_, teaser) => {
      await renderWithProviders(<TeaserPage teaser={teaser} invitation={trial(teaser.label)} />)
      expect(await screen.findByRole('heading', { level: 1, name: teaser.label })).toBeInTheDocument()
      expect(screen.getByText(teaser.description)).toBeInTheDocument()
      expect(screen.getByRole('link', { name: 'Learn more' })).toHaveAttribute('href', teaser.learnMoreUrl)
      for (const b of teaser.bullets ?? []) {
        expect(screen.getByRole('heading', { name: b.header })).toBeInTheDocument()
        const items = within(screen.getByRole('list'))
          .getAllByRole('listitem')
          .map((li) => li.textContent)
        expect(items).toEqual(b.content)
      }
      for (const c of teaser.cards ?? []) {
        expect(screen.getByText(c.label)).toBeInTheDocument()
        expect(screen.getByText(c.description)).toBeInTheDocument()
      }
      expect(screen.getByText(`Start a free trial to try ${teaser.label}.`)).toBeInTheDocument()
      expect(screen.getByRole('link', { name: 'Start a free trial' })).toHaveAttribute('href', FREE_TRIAL_URL)
    },
  )

  it('shows the setting that turns a module on, and no trial', async () => {
    await renderWithProviders(
      <TeaserPage
        teaser={MODULE_TEASERS.securityCompliance}
        invitation={{ kind: 'turnOn', text: 'To turn it on, restart node n1 with', setting: 'TROVE_MODULES=repository,scanner' }}
      />,
    )
    expect(await screen.findByText('To turn it on, restart node n1 with')).toBeInTheDocument()
    expect(screen.getByText('TROVE_MODULES=repository,scanner')).toBeInTheDocument()
    expect(screen.queryByText(/free trial/i)).toBeNull()
  })

  it('links to the screen, or to the licences, when there is one to open', async () => {
    const { router } = await renderWithProviders(
      <TeaserPage
        teaser={MODULE_TEASERS.topology}
        invitation={{
          kind: 'open',
          text: 'Topology is part of Trove.',
          link: { label: 'Open Topology', path: '/admin/mission_control/topology' },
        }}
      />,
    )
    expect(await screen.findByRole('link', { name: 'Open Topology' })).toHaveAttribute('href', '/admin/mission_control/topology')
    expect(router.state.location.pathname).toBe('/')
  })

  it('says what Trove does not have, with its hint and no button', async () => {
    await renderWithProviders(
      <TeaserPage
        teaser={MODULE_TEASERS.pipelines}
        invitation={{ kind: 'notInTrove', text: 'Pipelines is not part of Trove yet.', hint: 'Use Builds.' }}
      />,
    )
    expect(await screen.findByText('Pipelines is not part of Trove yet.')).toBeInTheDocument()
    expect(screen.getByText('Use Builds.')).toBeInTheDocument()
    expect(screen.queryByRole('button')).toBeNull()
  })
})
