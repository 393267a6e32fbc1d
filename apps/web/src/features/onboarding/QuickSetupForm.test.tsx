import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { QuickSetupForm } from './QuickSetupForm'

describe('quick setup', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals())

  it('tells what it will make, makes it for the ticked types and links to each new repository', async () => {
    const bodies: unknown[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: URL | string, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)))
        return json(201, {
          repositories: [
            { key: 'npm-local', rclass: 'local', packageType: 'npm' },
            { key: 'npm-remote', rclass: 'remote', packageType: 'npm' },
            { key: 'npm-virtual', rclass: 'virtual', packageType: 'npm' },
            { key: 'generic-local', rclass: 'local', packageType: 'generic' },
          ],
        })
      }),
    )
    await renderWithProviders(<QuickSetupForm initialType="npm" />)
    const user = userEvent.setup()
    expect(await screen.findByRole('checkbox', { name: 'npm' })).toBeChecked()
    await user.click(screen.getByRole('checkbox', { name: 'Generic' }))
    const plan = screen.getByRole('list', { name: 'Repositories to create' })
    expect(plan).toHaveTextContent('npm-remote (proxies https://registry.npmjs.org)')
    expect(plan).toHaveTextContent('generic-local')
    await user.click(screen.getByRole('button', { name: 'Create repositories' }))
    const created = await screen.findByRole('list', { name: 'Created repositories' })
    expect(bodies).toEqual([{ packageTypes: ['npm', 'generic'] }])
    expect(screen.getByRole('link', { name: 'npm-virtual' })).toHaveAttribute(
      'href',
      '/artifacts/browse/tree/General/npm-virtual',
    )
    expect(created).toHaveTextContent('generic-local')
  })

  it('shows the clash and keeps the choice; nothing to create without a type', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(409, { errors: [{ status: 409, message: 'Nothing was created: npm-local already exists' }] })),
    )
    await renderWithProviders(<QuickSetupForm />)
    const user = userEvent.setup()
    expect(await screen.findByRole('button', { name: 'Create repositories' })).toBeDisabled()
    await user.click(screen.getByRole('checkbox', { name: 'npm' }))
    await user.click(screen.getByRole('button', { name: 'Create repositories' }))
    await waitFor(() => expect(screen.getByText('Nothing was created: npm-local already exists')).toBeInTheDocument())
    expect(screen.getByRole('checkbox', { name: 'npm' })).toBeChecked()
  })
})
