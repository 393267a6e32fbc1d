import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { BuildRunPage, type RunTab } from './BuildRunPage'

afterEach(() => vi.unstubAllGlobals())

const item = (name: string, file: { repoKey: string; path: string } | null) => ({
  name,
  type: 'jar',
  sha1: 'a'.repeat(40),
  sha256: 'b'.repeat(64),
  md5: null,
  scopes: [],
  file,
})

function Page() {
  const [tab, setTab] = useState<RunTab>('modules')
  return <BuildRunPage name="app" number="7" tab={tab} onTab={setTab} onNotFound={vi.fn()} onDeleted={vi.fn()} />
}

describe('BuildRunPage', () => {
  it('shows modules with items linked to their stored files, then environment, properties and the document', async () => {
    stubFetch({
      '/ui/api/v1/ui/builds/app/7': () =>
        json(200, {
          name: 'app',
          number: '7',
          started: '2026-03-01T10:00:00.000Z',
          durationMillis: 185_000,
          agent: 'Jenkins/2.4',
          url: 'https://ci.example.com/app/7',
          publishedBy: 'ci-bot',
          status: null,
          vcsRevision: 'abc123',
          canDelete: false,
          modules: [
            {
              id: 'com.acme:app:1.0',
              artifacts: [item('app-1.0.jar', { repoKey: 'libs-local', path: 'com/acme/app 1.0.jar' })],
              dependencies: [item('org.lib:lib:2', null)],
            },
          ],
          environment: [{ name: 'JAVA_HOME', value: '/opt/java' }],
          properties: [{ name: 'release.stage', value: 'qa' }],
          info: { name: 'app', number: '7', custom: 'kept as published' },
        }),
    })
    await renderWithProviders(<Page />)
    const module = await screen.findByRole('region', { name: 'Module com.acme:app:1.0' })
    expect(within(module).getByRole('link', { name: 'app-1.0.jar' })).toHaveAttribute(
      'href',
      '/artifacts/browse/tree/General/libs-local/com/acme/app%201.0.jar',
    )
    const deps = within(module).getByRole('table', { name: 'Dependencies of com.acme:app:1.0' })
    expect(within(deps).getByText('org.lib:lib:2')).toBeInTheDocument()
    expect(within(deps).queryByRole('link')).not.toBeInTheDocument()
    expect(screen.getByText('3 min 5 s')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete run' })).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('tab', { name: /Environment/ }))
    expect(within(await screen.findByRole('table', { name: 'Environment' })).getByText('JAVA_HOME')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: /Properties/ }))
    expect(within(await screen.findByRole('table', { name: 'Properties' })).getByText('qa')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: 'Build info JSON' }))
    expect(await screen.findByText(/"custom": "kept as published"/)).toBeInTheDocument()
  })
})
