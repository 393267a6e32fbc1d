import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { SystemLogsPage } from './SystemLogsPage'

afterEach(() => vi.unstubAllGlobals())

const node = {
  node_id: 'n1',
  service_id: 'repository@c',
  status: 'Online',
  url: '',
  version: '1',
  start_time: 0,
  micro_services: {},
}

describe('the system logs screen', () => {
  it('waits for logs, then asks only for what follows its read position', async () => {
    let answerFirst: (r: Response) => void = () => {}
    const polls: string[] = []
    let call = 0
    const fetchMock = stubFetch({
      '/ui/api/v1/system/status/ha': () => json(200, { repository: { nodes: [node] } }),
      '/ui/api/v1/system/logs/config/repository': () =>
        json(200, { logs: ['trove.log', 'trove.1.log'], selected_log: 'trove.log', refresh_rate_millis: 5000 }),
      '/ui/api/v1/system/logs/data/repository': () => {
        call += 1
        if (call === 1) return new Promise<Response>((resolve) => (answerFirst = resolve))
        return json(200, {
          file_size: 200,
          file_id: 'f1',
          log_content: 'second line\n',
          last_update_modified: 0,
          skipped_bytes: 0,
          rotated: false,
        })
      },
    })
    await renderWithProviders(<SystemLogsPage />)
    expect(await screen.findByText(Messages.waitingForLogs)).toBeInTheDocument()

    await waitFor(() => expect(call).toBe(1))
    answerFirst(
      json(200, {
        file_size: 100,
        file_id: 'f1',
        log_content: 'first line\n',
        last_update_modified: 0,
        skipped_bytes: 0,
        rotated: false,
      }),
    )
    const log = await screen.findByRole('log', { name: 'Log lines' })
    expect(log).toHaveTextContent('first line')

    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh now' }))
    await waitFor(() => expect(log).toHaveTextContent('second line'))
    for (const [url] of fetchMock.mock.calls as unknown as [URL][]) {
      if (String(url).includes('/logs/data/')) polls.push(new URL(String(url)).search)
    }
    expect(polls[0]).toBe('?nodeId=n1&id=trove.log')
    expect(polls[1]).toBe('?nodeId=n1&id=trove.log&file_size=100&file_id=f1')
    expect(screen.getByTestId('refresh-countdown')).toHaveTextContent(/Refreshing in \ds/)
  })

  it('pauses and resumes the countdown', async () => {
    stubFetch({
      '/ui/api/v1/system/status/ha': () => json(200, { repository: { nodes: [node] } }),
      '/ui/api/v1/system/logs/config/repository': () =>
        json(200, { logs: ['trove.log'], selected_log: 'trove.log', refresh_rate_millis: 5000 }),
      '/ui/api/v1/system/logs/data/repository': () =>
        json(200, { file_size: 1, file_id: 'f', log_content: 'x\n', last_update_modified: 0, skipped_bytes: 0, rotated: false }),
    })
    await renderWithProviders(<SystemLogsPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Pause' }))
    expect(screen.getByTestId('refresh-countdown')).toHaveTextContent(Messages.logsPaused)
    await user.click(screen.getByRole('button', { name: 'Resume' }))
    expect(screen.getByTestId('refresh-countdown')).toHaveTextContent(/Refreshing in \ds/)
  })
})
