import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../../test/fetchStub'
import { renderWithProviders } from '../../../test/render'
import { CopyMoveDialog } from './CopyMoveDialog'
import { propertiesError } from './DeployDialog'

describe('the copy dialog', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals())

  it('asks for a dry run first, shows its conflicts, and copies only when nothing is refused', async () => {
    const bodies: { dryRun: boolean; targetRepoKey: string }[] = []
    let refused = true
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: URL | string, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body))
        bodies.push(body)
        return json(200, {
          dryRun: body.dryRun,
          files: 1,
          conflicts: ['docs/a.txt'],
          refused: body.dryRun && refused,
          messages: refused ? ['1 target path(s) already hold a file in libs-b; replacing them needs the delete permission'] : [],
        })
      }),
    )
    const onDone = vi.fn()
    await renderWithProviders(
      <CopyMoveDialog
        op="copy"
        opened
        onClose={() => {}}
        source={{ repoKey: 'libs-a', path: 'docs/a.txt' }}
        targets={['libs-b']}
        onDone={onDone}
      />,
    )
    const user = userEvent.setup()
    expect(await screen.findByRole('button', { name: 'Dry run' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Copy' })).toBeDisabled()
    await user.click(screen.getByRole('combobox', { name: 'Target repository' }))
    await user.click(await screen.findByRole('option', { name: 'libs-b', hidden: true }))
    await user.click(screen.getByRole('button', { name: 'Dry run' }))
    const status = await screen.findByRole('status')
    expect(status).toHaveTextContent('1 file(s) would be copied to libs-b/docs/a.txt')
    expect(status).toHaveTextContent('needs the delete permission')
    expect(screen.getByRole('list', { name: 'Conflicts' })).toHaveTextContent('docs/a.txt')
    expect(screen.getByRole('button', { name: 'Copy' })).toBeDisabled()

    // Once allowed, the copy runs for real.
    refused = false
    await user.click(screen.getByRole('button', { name: 'Dry run' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Copy' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('libs-b', 'docs/a.txt'))
    expect(bodies.map((b) => b.dryRun)).toEqual([true, true, false])
    expect(bodies[2]).toMatchObject({ repoKey: 'libs-a', path: 'docs/a.txt', targetRepoKey: 'libs-b', targetPath: 'docs/a.txt' })
  })
})

describe('deploy properties', () => {
  it('takes name=value;other=v1,v2 and refuses names with spaces or separators', () => {
    expect(propertiesError('')).toBeNull()
    expect(propertiesError('release=1.0;team=core,docs')).toBeNull()
    expect(propertiesError('flag')).toBeNull()
    expect(propertiesError('has space=1')).toMatch(/name=value/)
    expect(propertiesError('=1')).toMatch(/name=value/)
  })
})
