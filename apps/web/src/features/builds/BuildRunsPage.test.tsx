import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { BuildTexts } from '@trove/contracts/builds'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { BuildRunsPage } from './BuildRunsPage'

afterEach(() => vi.unstubAllGlobals())

const RUNS = '/ui/api/v1/ui/builds/web%20app'
const run = (number: string, day: number) => ({
  number,
  started: `2026-03-0${day}T10:00:00.000Z`,
  agent: 'GitHub Actions/2',
  url: `https://ci.example.com/${number}`,
  publishedBy: 'ci-bot',
  status: number === '3' ? 'Released' : null,
})
const runs =
  (canDelete: boolean, numbers = ['3', '2', '1']) =>
  () =>
    json(200, { name: 'web app', canDelete, runs: numbers.map((n) => run(n, Number(n))) })
const sums = (c: string) => ({ sha1: c.repeat(40), sha256: null })

describe('BuildRunsPage', () => {
  it('lists the runs and, once two are picked, what the newer changed since the older', async () => {
    const mock = stubFetch({
      [RUNS]: runs(false),
      [`${RUNS}/3/diff/1`]: () =>
        json(200, {
          name: 'web app',
          base: { number: '1', started: '2026-03-01T10:00:00.000Z' },
          compared: { number: '3', started: '2026-03-03T10:00:00.000Z' },
          artifacts: [{ module: 'm', name: 'app.jar', type: 'jar', change: 'changed', before: sums('a'), after: sums('b') }],
          dependencies: [{ module: 'm', name: 'lib:1', type: 'jar', change: 'removed', before: sums('c'), after: null }],
        }),
    })
    await renderWithProviders(<BuildRunsPage name="web app" onNotFound={vi.fn()} onBuildGone={vi.fn()} />)
    const table = await screen.findByRole('table', { name: 'Runs of web app' })
    expect(within(table).getAllByRole('row')).toHaveLength(4)
    expect(within(table).getByRole('link', { name: '#3' })).toHaveAttribute('href', '/builds/web%20app/3')
    expect(within(table).getByRole('link', { name: 'CI page of run 2' })).toHaveAttribute('href', 'https://ci.example.com/2')
    expect(within(table).getByRole('row', { name: /#3/ })).toHaveTextContent('Released')
    // No delete permission: no delete buttons.
    expect(screen.queryByRole('button', { name: /Delete run/ })).not.toBeInTheDocument()
    expect(screen.getByText(BuildTexts.pickTwoRuns)).toBeInTheDocument()

    // Picked oldest first: still the newer one is compared against the older.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Compare run 1' }))
    await userEvent.click(screen.getByRole('checkbox', { name: 'Compare run 3' }))
    const artifacts = await screen.findByRole('table', { name: 'Changed artifacts' })
    expect(within(artifacts).getByRole('row', { name: /app\.jar/ })).toHaveTextContent(/changed/)
    expect(within(artifacts).getByLabelText(`Before ${'a'.repeat(40)}`)).toHaveTextContent('a'.repeat(12))
    expect(within(screen.getByRole('table', { name: 'Changed dependencies' })).getByText('lib:1')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Run 3 compared with run 1' })).toBeInTheDocument()
    expect(mock.mock.calls.some(([url]) => String(url).includes('/3/diff/1'))).toBe(true)
  })

  it('deletes a run after confirmation when the caller may', async () => {
    let deleted = false
    const mock = stubFetch({
      [RUNS]: () => (deleted ? runs(true, ['3', '1'])() : runs(true)()),
      [`${RUNS}/2`]: () => {
        deleted = true
        return new Response(null, { status: 204 })
      },
    })
    await renderWithProviders(<BuildRunsPage name="web app" onNotFound={vi.fn()} onBuildGone={vi.fn()} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Delete run 2' }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent(BuildTexts.deleteRunBody)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(deleted).toBe(false)

    await userEvent.click(screen.getByRole('button', { name: 'Delete run 2' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }))
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Delete run 2' })).not.toBeInTheDocument())
    // fetch(url, init): the stub's own signature names only the url.
    const calls = mock.mock.calls as unknown as [string, RequestInit | undefined][]
    expect(calls.find(([url]) => String(url).endsWith(`${RUNS}/2`))?.[1]?.method).toBe('DELETE')
  })

  it('hands an unknown or unreadable build to the not-found screen', async () => {
    stubFetch({})
    const onNotFound = vi.fn()
    await renderWithProviders(<BuildRunsPage name="hidden" onNotFound={onNotFound} onBuildGone={vi.fn()} />)
    await vi.waitFor(() => expect(onNotFound).toHaveBeenCalled())
  })
})
