import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { ContactRequestsPage } from './ContactRequestsPage'

const request = (id: number, over: object) => ({
  id,
  createdAt: 1_700_000_000_000 + id,
  submittedBy: 'alice',
  firstName: 'Ada',
  lastName: 'Lovelace',
  country: 'United Kingdom',
  email: 'ada@example.com',
  helpOption: 'request demo',
  optionalComment: null,
  marketoDataKey: null,
  context: 'contact us',
  delivery: { status: 'sent', recipient: 'sales@example.com', error: null, at: 1_700_000_000_100 },
  ...over,
})

describe('the contact requests screen', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists each request with what became of its mail, and saves the recipient', async () => {
    const calls: { method: string; path: string; query: string; body?: unknown }[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: URL | string, init?: RequestInit) => {
        const u = new URL(String(url), 'http://localhost')
        const method = init?.method ?? 'GET'
        calls.push({ method, path: u.pathname, query: u.search, body: init?.body ? JSON.parse(String(init.body)) : undefined })
        if (u.pathname.endsWith('/configuration/contact'))
          return json(200, method === 'PUT' ? JSON.parse(String(init?.body)) : { recipient: '' })
        return json(200, {
          items: [
            request(2, {
              helpOption: 'technical support',
              delivery: { status: 'unsent', recipient: null, error: 'No mail server is configured', at: 1 },
            }),
            request(1, {}),
          ],
          total: 2,
          page: 1,
          pageSize: 100,
        })
      }),
    )
    await renderWithProviders(<ContactRequestsPage />)
    const user = userEvent.setup()
    const table = await screen.findByRole('table', { name: 'Contact requests' })
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3))
    const [, newest, older] = within(table).getAllByRole('row')
    expect(newest).toHaveTextContent('Technical support')
    expect(newest).toHaveTextContent('Not sent')
    expect(newest).toHaveTextContent('No mail server is configured')
    expect(older).toHaveTextContent('Request a demo')
    expect(older).toHaveTextContent('Sent')
    expect(older).toHaveTextContent('to sales@example.com')
    expect(calls.find((c) => c.path.endsWith('/contact/requests'))?.query).toBe('?page=1')

    await user.type(screen.getByRole('textbox', { name: /Mail contact requests to/ }), 'sales@example.com')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Saved')
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      { method: 'PUT', path: '/ui/api/v1/ui/admin/configuration/contact', query: '', body: { recipient: 'sales@example.com' } },
    ])
  })
})
