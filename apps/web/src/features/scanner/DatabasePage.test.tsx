import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { format, Messages } from '@trove/contracts/messages'
import { type AdvisoryDatabaseStatus, advisoryDatabaseNotice } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { sentJson, stubRoutes } from '../../test/routeStub'
import { DatabasePage } from './DatabasePage'
import { validateFeed } from './FeedForm'

const API = '/ui/api/v1/xray/ui/admin'
const EMPTY: AdvisoryDatabaseStatus = {
  enabled: true,
  advisories: 0,
  updatedAt: null,
  notice: null,
  waiting: 0,
  feed: { url: '', intervalHours: 24 },
  imports: [],
}
const FAILED = {
  id: 1,
  source: 'upload:bad.json',
  state: 'failed' as const,
  records: 0,
  message: 'bad.json[1]: affected.0.package.ecosystem: expected a string',
  startedAt: Date.UTC(2026, 10, 25, 9),
  finishedAt: Date.UTC(2026, 10, 25, 9),
  createdBy: 'admin',
}

const render = () =>
  renderWithProviders(
    <>
      <Notifications />
      <DatabasePage />
    </>,
  )

describe('the advisory database screen', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('shows the counts and the last imports with their state and message', async () => {
    stubRoutes({ [`GET ${API}/database`]: () => json(200, { ...EMPTY, advisories: 1234, imports: [FAILED] }) })
    await render()
    expect(await screen.findByLabelText('Advisories')).toHaveTextContent((1234).toLocaleString())
    expect(screen.getByLabelText('Versions waiting for a scan')).toHaveTextContent('0')
    const row = within(screen.getByRole('table', { name: 'Last imports' })).getByRole('row', { name: /upload:bad.json/ })
    expect(row).toHaveTextContent('failed')
    expect(row).toHaveTextContent('affected.0.package.ecosystem: expected a string')
    expect(screen.getByText(ScreenMessages.scannerFeedNone)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeDisabled()
  })

  it('says when the database is empty or stale, and nothing while it is current', async () => {
    const notice = advisoryDatabaseNotice(0, null) as string
    stubRoutes({ [`GET ${API}/database`]: () => json(200, { ...EMPTY, notice }) })
    await render()
    expect(await screen.findByRole('status')).toHaveTextContent(notice)
    expect(advisoryDatabaseNotice(10, Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 2))).toMatch(/last updated 31 days ago/)
    expect(advisoryDatabaseNotice(10, Date.UTC(2026, 11, 1), Date.UTC(2026, 11, 2))).toBeNull()
  })

  it('uploads an OSV file as it is, named, and refuses other files before sending', async () => {
    let status = EMPTY
    const calls = stubRoutes({
      [`GET ${API}/database`]: () => json(200, status),
      [`POST ${API}/database/import`]: () => {
        status = { ...EMPTY, advisories: 9 }
        return json(200, { id: 2, records: 9, reevaluated: { versions: 1, gitRepos: 0, components: 1 } })
      },
    })
    const { container } = await render()
    const user = userEvent.setup({ applyAccept: false })
    await screen.findByLabelText('Advisories')
    const input = container.querySelector('input[type=file]') as HTMLInputElement
    await user.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }))
    await user.click(screen.getByRole('button', { name: 'Import' }))
    expect(await screen.findByText(ScreenMessages.scannerImportFileType)).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.upload(input, new File(['[{"id":"GHSA-x"}]'], 'osv advisories.json', { type: 'application/json' }))
    await user.click(screen.getByRole('button', { name: 'Import' }))
    expect(await screen.findByText(format(ScreenMessages.scannerImported, { records: 9, versions: 1 }))).toBeInTheDocument()
    const post = calls.find((c) => c.method === 'POST')
    expect(post?.headers).toMatchObject({ 'content-type': 'application/octet-stream', 'x-file-name': 'osv advisories.json' })
    const sent = await new Promise<string>((resolve) => {
      const reader = new FileReader()
      reader.onload = () => resolve(String(reader.result))
      reader.readAsText(post?.body as Blob)
    })
    expect(sent).toBe('[{"id":"GHSA-x"}]')
    await waitFor(() => expect(screen.getByLabelText('Advisories')).toHaveTextContent('9'))
  })

  it('saves the feed, then syncs it, and puts a refused URL on its field', async () => {
    let status = EMPTY
    const calls = stubRoutes({
      [`GET ${API}/database`]: () => json(200, status),
      [`PUT ${API}/database/feed`]: (call) => {
        status = { ...EMPTY, feed: sentJson(call) as AdvisoryDatabaseStatus['feed'] }
        return json(200, status.feed)
      },
      [`POST ${API}/database/sync`]: () => json(502, { errors: [{ status: 502, message: 'The advisory feed answered 404' }] }),
    })
    await render()
    const user = userEvent.setup()
    const url = await screen.findByRole('textbox', { name: /Feed URL/ })
    await user.type(url, 'ftp://example.com/all.zip')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(url).toHaveAccessibleDescription(new RegExp(Messages.invalidUrl))
    await user.clear(url)
    await user.type(url, 'https://osv.example.com/npm/all.zip')
    const hours = screen.getByRole('textbox', { name: /Sync every/ })
    await user.clear(hours)
    await user.type(hours, '6')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(ScreenMessages.scannerFeedSaved)).toBeInTheDocument()
    expect(sentJson(calls.find((c) => c.method === 'PUT'))).toEqual({
      url: 'https://osv.example.com/npm/all.zip',
      intervalHours: 6,
    })

    const sync = screen.getByRole('button', { name: 'Sync now' })
    await waitFor(() => expect(sync).toBeEnabled())
    await user.click(sync)
    expect(await screen.findByRole('alert')).toHaveTextContent('The advisory feed answered 404')
  })

  it('checks the feed before sending: http(s) or nothing, whole hours within a month', () => {
    expect(validateFeed({ url: '', intervalHours: 24 })).toEqual({})
    expect(validateFeed({ url: 'http://mirror.local/all.zip', intervalHours: 720 })).toEqual({})
    expect(validateFeed({ url: 'not a url', intervalHours: 0 })).toEqual({
      url: Messages.invalidUrl,
      intervalHours: 'A whole number of hours from 1 to 720',
    })
  })
})
