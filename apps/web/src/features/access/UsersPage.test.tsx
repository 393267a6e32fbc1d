import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { UsersPage } from './UsersPage'

afterEach(() => vi.unstubAllGlobals())

const USERS = '/ui/api/v1/ui/admin/users'
const ME = '/ui/api/v1/ui/access/me'
const user = (name: string, admin = false) => ({
  name,
  email: `${name}@x.org`,
  admin,
  disabled: false,
  mfaRequired: false,
  realm: 'internal',
  createdAt: 0,
})
const usersCalls = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost')).filter((u) => u.pathname === USERS)

describe('UsersPage', () => {
  it('lists a page of users, sorts by a column and pages through 100 at a time', async () => {
    const mock = stubFetch({
      [USERS]: () => json(200, { items: [user('admin', true), user('bob')], total: 250, page: 1, pageSize: 100 }),
      [ME]: () => json(200, { anonymous: false, name: 'admin', admin: true, projectAdminOf: [], canAdministerProjects: true }),
    })
    await renderWithProviders(<UsersPage />)
    const table = await screen.findByRole('table', { name: 'Users' })
    expect(await within(table).findByRole('link', { name: 'bob' })).toBeInTheDocument()
    expect(within(table).getByRole('row', { name: /admin@x\.org/ })).toHaveTextContent('Admin')
    expect(within(table).getByRole('row', { name: /bob@x\.org/ })).not.toHaveTextContent('Admin')
    expect(screen.getByText('250 users')).toBeInTheDocument()
    // the tabs show the whole user management to an admin
    expect(await screen.findByRole('tab', { name: 'Permissions' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: /^Email/ }))
    expect(usersCalls(mock).at(-1)?.searchParams.get('sort')).toBe('email')
    await userEvent.click(screen.getByRole('button', { name: /^Email/ }))
    expect(usersCalls(mock).at(-1)?.searchParams.get('order')).toBe('desc')

    await userEvent.click(screen.getByRole('button', { name: '3' }))
    expect(usersCalls(mock).at(-1)?.searchParams.get('page')).toBe('3')

    await userEvent.type(screen.getByRole('textbox', { name: 'Search users' }), 'bo')
    expect(usersCalls(mock).at(-1)?.searchParams.get('search')).toBe('bo')
    expect(usersCalls(mock).at(-1)?.searchParams.get('page')).toBe('1')
  }, 15_000)

  it('shows a project admin only the Projects tab', async () => {
    stubFetch({
      [USERS]: () => json(403, { errors: [{ status: 403, message: 'You are not allowed to do this' }] }),
      [ME]: () =>
        json(200, { anonymous: false, name: 'olga', admin: false, projectAdminOf: ['shop'], canAdministerProjects: true }),
    })
    await renderWithProviders(<UsersPage />)
    expect(await screen.findByRole('tab', { name: 'Projects' })).toBeInTheDocument()
    expect(screen.queryByRole('tab', { name: 'Users' })).not.toBeInTheDocument()
  }, 15_000)
})
