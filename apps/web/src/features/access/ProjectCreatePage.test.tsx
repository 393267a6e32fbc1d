import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { ProjectCreatePage } from './ProjectCreatePage'

afterEach(() => vi.unstubAllGlobals())

const PROJECTS = '/ui/api/v1/ui/admin/projects'
const projectCalls = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === PROJECTS)

describe('ProjectCreatePage', () => {
  it('checks the key before calling the server: mandatory, a lowercase first character, the length limit', async () => {
    const mock = stubFetch({})
    await renderWithProviders(<ProjectCreatePage />)
    await userEvent.click(screen.getByRole('button', { name: 'Create project' }))
    expect(screen.getAllByText(Messages.fieldMandatory)).toHaveLength(2)
    await userEvent.type(screen.getByRole('textbox', { name: 'Project name' }), 'Shop')
    await userEvent.type(screen.getByRole('textbox', { name: 'Project key' }), 'Shop')
    await userEvent.click(screen.getByRole('button', { name: 'Create project' }))
    expect(screen.getByText(Messages.projectKeyLowercase)).toBeInTheDocument()
    await userEvent.clear(screen.getByRole('textbox', { name: 'Project key' }))
    await userEvent.click(screen.getByRole('textbox', { name: 'Project key' }))
    await userEvent.paste('a'.repeat(Limits.projectKeyMaxLength + 1))
    await userEvent.click(screen.getByRole('button', { name: 'Create project' }))
    expect(screen.getByText(`Project key must be at most ${Limits.projectKeyMaxLength} characters`)).toBeInTheDocument()
    expect(projectCalls(mock)).toHaveLength(0)
  }, 15_000)

  it("shows 'Failed to create a project' when the server gives no reason", async () => {
    const mock = stubFetch({ [PROJECTS]: () => new Response('', { status: 500 }) })
    await renderWithProviders(<ProjectCreatePage />)
    await userEvent.type(screen.getByRole('textbox', { name: 'Project name' }), 'Shop')
    await userEvent.type(screen.getByRole('textbox', { name: 'Project key' }), 'shop')
    await userEvent.click(screen.getByRole('button', { name: 'Create project' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.projectCreateFailed)
    expect(projectCalls(mock)).toHaveLength(1)
  }, 15_000)
})
