import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { CreateBundleDialog } from './CreateBundleDialog'

// Typing in a modal is slow in jsdom on a busy machine.
describe('the create support bundle dialog', { timeout: 20_000 }, () => {
  it('sends the thread dump as whole numbers, with name, description and dates', async () => {
    const onCreate = vi.fn()
    await renderWithProviders(
      <CreateBundleDialog opened onClose={() => {}} services={['repository', 'distribution']} onCreate={onCreate} />,
    )
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'slow search')
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'it is slow')
    await user.clear(screen.getByRole('textbox', { name: 'Thread dump count' }))
    await user.type(screen.getByRole('textbox', { name: 'Thread dump count' }), '3')
    await user.clear(screen.getByRole('textbox', { name: 'Thread dump interval (ms)' }))
    await user.type(screen.getByRole('textbox', { name: 'Thread dump interval (ms)' }), '250')
    await user.click(screen.getByRole('button', { name: 'Create' }))
    expect(onCreate).toHaveBeenCalledWith(
      'repository',
      expect.objectContaining({
        name: 'slow search',
        description: 'it is slow',
        parameters: expect.objectContaining({
          thread_dump: { count: 3, interval: 250 },
          logs: expect.objectContaining({ include: true }),
        }),
      }),
    )
  })

  it('refuses a missing name and a thread dump count out of bounds', async () => {
    const onCreate = vi.fn()
    await renderWithProviders(<CreateBundleDialog opened onClose={() => {}} services={['repository']} onCreate={onCreate} />)
    const user = userEvent.setup()
    await user.clear(await screen.findByRole('textbox', { name: 'Thread dump count' }))
    await user.type(screen.getByRole('textbox', { name: 'Thread dump count' }), '50')
    await user.click(screen.getByRole('button', { name: 'Create' }))
    expect(onCreate).not.toHaveBeenCalled()
    expect(screen.getByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Between 0 and 10')).toBeInTheDocument()
  })
})
