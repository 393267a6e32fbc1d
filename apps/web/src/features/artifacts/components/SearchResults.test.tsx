import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { artifactSearchOf } from '../../../app/screens/ArtifactsScreen'
import { json } from '../../../test/fetchStub'
import { renderWithProviders } from '../../../test/render'
import { stubRoutes } from '../../../test/routeStub'
import { SearchResults } from './SearchResults'

const found = {
  results: [
    {
      uri: 'http://localhost/api/storage/tools/my_tool/1.0/my_tool-1.0.tgz',
      repo: 'tools',
      path: '/my_tool/1.0/my_tool-1.0.tgz',
      name: 'my_tool-1.0.tgz',
      size: 2048,
      lastModified: '2026-11-30T10:00:00.000Z',
    },
  ],
}

describe('the artifacts search results', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists the files found by part of their name, with their details, and opens one in the tree', async () => {
    const calls = stubRoutes({ 'GET /api/search/artifact': () => json(200, found) })
    const onOpen = vi.fn()
    await renderWithProviders(
      <SearchResults search={{ name: 'tool-1', repositories: ['tools'] }} onOpen={onOpen} onClose={() => {}} />,
    )
    const row = (await screen.findByRole('link', { name: 'my_tool-1.0.tgz' })).closest('tr') as HTMLElement
    expect(within(row).getByText('my_tool/1.0/')).toBeTruthy()
    expect(within(row).getByText('tools')).toBeTruthy()
    expect(within(row).getByText('2.0 KB')).toBeTruthy()
    expect(screen.getByText('1 file matches “tool-1”.')).toBeTruthy()
    expect(calls[0]?.search.get('name')).toBe('tool-1')
    expect(calls[0]?.search.get('repos')).toBe('tools')
    expect(calls[0]?.headers['x-result-detail']).toBe('info')
    await userEvent.setup().click(screen.getByRole('link', { name: 'my_tool-1.0.tgz' }))
    expect(onOpen).toHaveBeenCalledWith({ repoKey: 'tools', path: 'my_tool/1.0/my_tool-1.0.tgz' })
  })

  it('says when nothing matches, and searches a checksum by its kind', async () => {
    const calls = stubRoutes({ 'GET /api/search/checksum': () => json(200, { results: [] }) })
    const sum = 'a'.repeat(40)
    await renderWithProviders(<SearchResults search={{ name: '', checksum: sum }} onOpen={() => {}} onClose={() => {}} />)
    expect(await screen.findByText(`No file you may read matches the checksum ${sum}.`)).toBeTruthy()
    expect(calls[0]?.search.get('sha1')).toBe(sum)
  })

  it('reads the search bar query: a name, repositories and a checksum; nothing to search is no search', () => {
    expect(artifactSearchOf('tool repo:tools,libs')).toEqual({
      name: 'tool',
      checksum: undefined,
      repositories: ['tools', 'libs'],
    })
    expect(artifactSearchOf(`checksum:${'b'.repeat(64)}`)).toMatchObject({ name: '', checksum: 'b'.repeat(64) })
    expect(artifactSearchOf('')).toBeNull()
    expect(artifactSearchOf(undefined)).toBeNull()
    expect(artifactSearchOf('repo:tools')).toBeNull()
  })
})
