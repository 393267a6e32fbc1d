import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { searchContext } from '../../test/searchContext'
import { loadRecentSearches, rememberSearch } from './recentSearches'
import { SearchBar } from './SearchBar'

const ctx = searchContext()

beforeEach(() => localStorage.clear())

describe('SearchBar', () => {
  it("is disabled on empty text, stores the search, then goes to the type's results", async () => {
    const onSearch = vi.fn()
    await renderWithProviders(
      <SearchBar ctx={ctx} routeType="packages" currentQuery="" currentPath="/overview" username="alice" onSearch={onSearch} />,
    )
    const button = screen.getByRole('button', { name: 'Search' })
    expect(button).toBeDisabled()
    await userEvent.type(screen.getByRole('combobox', { name: 'Search packages' }), 'Left Pad repo:npm-local')
    expect(button).toBeEnabled()
    await userEvent.click(button)
    await waitFor(() => expect(onSearch).toHaveBeenCalledWith({ path: '/packages' }, '"Left Pad" repo:npm-local'))
    const stored = await loadRecentSearches()
    expect(stored.alice?.[0]).toMatchObject({ type: 'packages', queryString: '"Left Pad" repo:npm-local', context: null })
  }, 20_000)

  it('keeps the name and drops the filters when the type changes', async () => {
    await renderWithProviders(
      <SearchBar
        ctx={ctx}
        routeType="packages"
        currentQuery="lodash pkg:npm"
        currentPath="/packages"
        username={null}
        onSearch={() => {}}
      />,
    )
    expect(screen.getByRole('combobox', { name: 'Search packages' })).toHaveValue('lodash pkg:npm')
    await userEvent.click(screen.getByRole('combobox', { name: 'Search type' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Builds', hidden: true }))
    expect(screen.getByRole('combobox', { name: 'Search builds' })).toHaveValue('lodash')
  }, 20_000)

  it('sets the package type filter from the quick types', async () => {
    await renderWithProviders(
      <SearchBar
        ctx={ctx}
        routeType="packages"
        currentQuery="lodash"
        currentPath="/packages"
        username={null}
        onSearch={() => {}}
      />,
    )
    await userEvent.click(screen.getByRole('combobox', { name: 'Package type' }))
    await userEvent.click(await screen.findByRole('option', { name: 'npm', hidden: true }))
    expect(screen.getByRole('combobox', { name: 'Search packages' })).toHaveValue('lodash pkg:npm')
  }, 20_000)

  it('shows Release Bundles on a release-bundle page even when the rules leave the type out', async () => {
    await renderWithProviders(
      <SearchBar
        ctx={{ ...ctx, services: new Set() }}
        routeType="releaseBundles"
        currentQuery=""
        currentPath="/release-bundles"
        username={null}
        onSearch={() => {}}
      />,
    )
    expect(screen.getByRole('combobox', { name: 'Search type' })).toHaveValue('Release Bundles')
  }, 20_000)

  it('closes the recent searches when the search runs', async () => {
    await rememberSearch('alice', {
      type: 'packages',
      queryString: 'hello',
      searchModel: { name: 'hello', filters: {} },
      context: null,
    })
    await renderWithProviders(
      <SearchBar ctx={ctx} routeType="packages" currentQuery="" currentPath="/packages" username="alice" onSearch={() => {}} />,
    )
    const input = screen.getByRole('combobox', { name: 'Search packages' })
    await userEvent.type(input, 'hel')
    expect(await screen.findByRole('option', { name: 'hello', hidden: true })).toBeInTheDocument()
    expect(input).toHaveAttribute('aria-expanded', 'true')
    await userEvent.type(input, 'lo{Enter}')
    await waitFor(() => expect(input).toHaveAttribute('aria-expanded', 'false'))
  }, 20_000)
})
