import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../test/render'
import { ErrorScreen } from './ErrorScreen'

describe('ErrorScreen', () => {
  it('shows the exact texts of the generic error screen', async () => {
    await renderWithProviders(<ErrorScreen />)
    expect(screen.getByRole('heading', { name: 'Oops!' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument()
    expect(screen.getByText(Messages.errorUnexpected)).toBeInTheDocument()
    expect(screen.getByText(Messages.errorPersists)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Refresh the page' })).toBeInTheDocument()
  })

  it("reveals the details behind 'See more details'", async () => {
    await renderWithProviders(<ErrorScreen details="Loading chunk overview failed (timeout)" />)
    const toggle = screen.getByRole('button', { name: 'See more details' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByText('Loading chunk overview failed (timeout)')).toBeInTheDocument()
  })
})
