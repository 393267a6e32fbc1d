import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { TeaserPage } from './TeaserPage'
import { DEMO_ADMIN_TEASERS, FREE_TRIAL_URL } from './teasers'

describe('a demo teaser page (§2.3)', () => {
  it.each(Object.entries(DEMO_ADMIN_TEASERS))(
    '%s shows its label, description, Learn more, bullets or cards and the free-trial invitation',
    async (_, teaser) => {
      await renderWithProviders(<TeaserPage teaser={teaser} />)
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
})
