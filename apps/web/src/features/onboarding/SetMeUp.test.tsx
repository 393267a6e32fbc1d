import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { SetMeUp } from './SetMeUp'

afterEach(() => vi.unstubAllGlobals())

const repositories = [{ key: 'docker-local', packageType: 'Docker', type: 'LOCAL' }]

describe('the set-me-up panel', () => {
  it("shows a Docker repository's Docker, Podman and skopeo lines, and puts a new token into them", async () => {
    stubFetch({
      '/ui/api/v1/ui/setMeUp': () =>
        json(200, {
          baseUrl: 'http://trove.example:8082',
          repository: { key: 'docker-local', packageType: 'docker', rclass: 'local' },
        }),
    })
    await renderWithProviders(
      <SetMeUp user="ada" repoKey="docker-local" repositories={repositories} generateToken={async () => 'trove_at_new'} />,
    )
    for (const title of ['Docker', 'Podman', 'Skopeo'])
      expect(await screen.findByRole('button', { name: `Copy: ${title}` })).toBeInTheDocument()
    expect(
      screen.getByText(/podman push --tls-verify=false trove\.example:8082\/docker-local\/<IMAGE>:<TAG>/),
    ).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Generate Token & Create Instructions' }))
    expect(
      await screen.findByText(/echo 'trove_at_new' \| podman login --tls-verify=false --username 'ada' --password-stdin/),
    ).toBeInTheDocument()
  })
})
