import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AccessMessages } from '@trove/contracts/access'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { PermissionFormPage } from './PermissionFormPage'

afterEach(() => vi.unstubAllGlobals())

const TARGET = '/ui/api/v1/ui/admin/permissions/team'
const ME = '/ui/api/v1/ui/access/me'
const team = {
  name: 'team',
  repositories: {
    resources: { names: ['team-local'], include: [], exclude: [] },
    grants: [{ kind: 'user', name: 'carol', actions: ['read', 'manage'] }],
  },
  builds: null,
  releaseBundles: null,
}

describe('PermissionFormPage', () => {
  it('lets a user who manages a permission change its grants only, and shows the server refusing more than they hold', async () => {
    let targetCalls = 0
    const mock = stubFetch({
      // first the GET of the permission, then the PUT the server refuses
      [TARGET]: () =>
        targetCalls++ === 0 ? json(200, team) : json(403, { errors: [{ status: 403, message: AccessMessages.cannotGrantMore }] }),
      [ME]: () => json(200, { anonymous: false, name: 'carol', admin: false, projectAdminOf: [], canAdministerProjects: false }),
    })
    await renderWithProviders(<PermissionFormPage name="team" />)
    expect(await screen.findByDisplayValue('team')).toBeDisabled()
    expect(screen.getByRole('checkbox', { name: 'Apply to repositories' })).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Delete permission' })).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('checkbox', { name: 'Repositories grant 1 Delete/Overwrite' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(AccessMessages.cannotGrantMore)
    const calls = mock.mock.calls as unknown as [URL, RequestInit | undefined][]
    const put = calls.find(([, init]) => init?.method === 'PUT')
    expect(JSON.parse(String(put?.[1]?.body)).repositories.grants[0].actions).toEqual(['read', 'manage', 'delete'])
  }, 15_000)
})
