import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { AuthorizationPage } from './AuthorizationPage'

afterEach(() => vi.unstubAllGlobals())

const REPOS = '/ui/api/v1/ui/access/me/repositories'
const PROJECTS = '/ui/api/v1/ui/access/me/projects'

describe('AuthorizationPage', () => {
  it('shows each repository’s actions, filters by name through the server, and the project roles', async () => {
    const mock = stubFetch({
      [REPOS]: () =>
        json(200, {
          admin: false,
          total: 1,
          page: 1,
          pageSize: 100,
          items: [{ repoKey: 'libs-local', rclass: 'local', packageType: 'npm', actions: ['read', 'deploy'] }],
        }),
      [PROJECTS]: () =>
        json(200, {
          admin: false,
          items: [
            {
              key: 'shop',
              displayName: 'Shop',
              roles: [{ role: 'Developer', via: 'group', group: 'readers' }],
              actions: ['read', 'annotate'],
              capabilities: [],
            },
          ],
        }),
    })
    await renderWithProviders(<AuthorizationPage />)
    const repos = await screen.findByRole('table', { name: 'Repository permissions' })
    const row = await within(repos).findByRole('row', { name: /libs-local/ })
    expect(within(row).getByRole('cell', { name: 'Read: yes' })).toBeInTheDocument()
    expect(within(row).getByRole('cell', { name: 'Annotate: no' })).toBeInTheDocument()
    expect(within(row).getByRole('cell', { name: 'Deploy/Cache: yes' })).toBeInTheDocument()
    expect(screen.queryByText(ScreenMessages.adminHoldsEverything)).not.toBeInTheDocument()
    const projects = screen.getByRole('table', { name: 'Project permissions' })
    expect(await within(projects).findByText('Developer (through the group readers)')).toBeInTheDocument()
    expect(within(projects).getByText('Read, Annotate')).toBeInTheDocument()

    await userEvent.type(screen.getByRole('textbox', { name: 'Filter repositories' }), 'lib')
    await vi.waitFor(() => {
      const last = mock.mock.calls
        .map(([u]) => new URL(String(u), 'http://localhost'))
        .filter((u) => u.pathname === REPOS)
        .at(-1)
      expect(last?.searchParams.get('search')).toBe('lib')
    })
  })

  it('tells an administrator they hold everything, and a user with nothing that they hold nothing', async () => {
    stubFetch({
      [REPOS]: () => json(200, { admin: true, total: 0, page: 1, pageSize: 100, items: [] }),
      [PROJECTS]: () => json(200, { admin: true, items: [] }),
    })
    await renderWithProviders(<AuthorizationPage />)
    expect(await screen.findByText(ScreenMessages.adminHoldsEverything)).toBeInTheDocument()
    expect(screen.getByText(ScreenMessages.noRepositoryPermissions)).toBeInTheDocument()
    expect(screen.getByText(ScreenMessages.noProjectMemberships)).toBeInTheDocument()
  })
})
