import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { RepositoryForm } from './RepositoryForm'

afterEach(() => vi.unstubAllGlobals())

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('RepositoryForm', () => {
  it("checks the key and the URL with the spec's wording before calling the server", async () => {
    const fetchMock = vi.fn(async (url: URL) => (url.pathname === '/api/repositories' ? json([]) : json({}, 500)))
    vi.stubGlobal('fetch', fetchMock)
    await renderWithProviders(<RepositoryForm rclass="remote" onDone={() => {}} />)
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(screen.getAllByText(Messages.fieldMandatory)).toHaveLength(2)
    await userEvent.type(screen.getByLabelText(/Repository key/), 'bad key!')
    await userEvent.type(screen.getByLabelText(/^URL/), 'not a url')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(screen.getByText(Messages.invalidName)).toBeInTheDocument()
    expect(screen.getByText(Messages.invalidUrl)).toBeInTheDocument()
    expect(fetchMock.mock.calls.every(([url]) => (url as URL).pathname === '/api/repositories')).toBe(true)
  })

  it('creates a remote repository with its upstream and cache lifetimes, then returns', async () => {
    const fetchMock = vi.fn(async (url: URL, init?: RequestInit) =>
      url.pathname === '/api/repositories' ? json([]) : json({ key: 'npm-remote', ...JSON.parse(String(init?.body)) }, 201),
    )
    vi.stubGlobal('fetch', fetchMock)
    const onDone = vi.fn()
    await renderWithProviders(<RepositoryForm rclass="remote" onDone={onDone} />)
    await userEvent.type(screen.getByLabelText(/Repository key/), 'npm-remote')
    await userEvent.type(screen.getByLabelText(/^URL/), 'https://registry.example/')
    await userEvent.type(screen.getByLabelText(/^Password/), 's3cret')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    await vi.waitFor(() => expect(onDone).toHaveBeenCalled())
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT') as unknown as [URL, RequestInit]
    expect(url.pathname).toBe('/api/repositories/npm-remote')
    expect(JSON.parse(String(init.body))).toMatchObject({
      rclass: 'remote',
      packageType: 'npm',
      url: 'https://registry.example/',
      password: 's3cret',
      offline: false,
      retrievalCachePeriodSecs: 600,
    })
  })
})
