import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { CONSOLE_API_BASE } from '@trove/contracts/http'
import { Messages } from '@trove/contracts/messages'
import { PACKAGES_PATHS, type PackageNode, type VersionNode } from '@trove/contracts/packages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../../test/fetchStub'
import { renderWithProviders } from '../../../test/render'
import { sentJson, stubRoutes } from '../../../test/routeStub'
import { PackageDetails } from './PackageDetails'

const PKG: PackageNode = {
  id: 'npm://hello',
  name: 'hello',
  packageType: 'npm',
  versionsCount: 2,
  description: 'Says hello',
  latestVersion: '2.0.0',
}
const version = (name: string): VersionNode => ({
  id: `npm://hello:${name}`,
  name,
  repos: [{ name: 'npm-local', type: 'local' }],
})

/** The package call, the version calls (by name when one is asked for) and each version's readme. */
function stubPackage(readmes: Record<string, string | null>) {
  const api = (path: string) => `POST ${CONSOLE_API_BASE}${path}`
  const routes: Parameters<typeof stubRoutes>[0] = {
    [api(PACKAGES_PATHS.package)]: () => json(200, { data: { package: PKG } }),
    [api(PACKAGES_PATHS.versions)]: (call) => {
      const filter = (sentJson(call) as { graphQL: { variables: { filter: { name?: string } } } }).graphQL.variables.filter
      const names = filter.name ? [filter.name] : ['2.0.0', '1.0.0']
      return json(200, {
        data: {
          versions: { edges: names.map((n) => ({ node: version(n) })), pageInfo: { hasNextPage: false, endCursor: null } },
        },
      })
    },
  }
  for (const [name, readme] of Object.entries(readmes))
    routes[`GET ${CONSOLE_API_BASE}${PACKAGES_PATHS.readme(`npm://hello:${name}`)}`] = () => json(200, { readme })
  return stubRoutes(routes)
}

const renderPackage = () =>
  renderWithProviders(
    <PackageDetails
      packageId="npm://hello"
      packageFields=""
      versionQuery={{ filter: {} }}
      onOpenVersion={() => {}}
      onNotFound={() => {}}
    />,
  )

afterEach(() => vi.unstubAllGlobals())

describe('PackageDetails', () => {
  it("opens on the latest version's readme, rendered as markdown", async () => {
    const calls = stubPackage({ '2.0.0': '# Hello\n\nThe **latest** readme.', '1.0.0': '# Old readme' })
    await renderPackage()
    expect(await screen.findByRole('tab', { name: 'Readme', selected: true })).toBeInTheDocument()
    const readme = await screen.findByTestId('readme')
    expect(within(readme).getByRole('heading', { name: 'Hello' })).toBeInTheDocument()
    expect(within(readme).getByText('latest').tagName).toBe('STRONG')
    expect(screen.getByText(/latest version, 2\.0\.0/)).toBeInTheDocument()
    expect(screen.queryByText('Old readme')).not.toBeInTheDocument()
    expect(calls.some((c) => c.path.endsWith(PACKAGES_PATHS.readme('npm://hello:1.0.0')))).toBe(false)

    await userEvent.click(screen.getByRole('tab', { name: 'Versions' }))
    // jsdom has no layout, so the virtual list draws no rows here; the browser test clicks them.
    expect(screen.getByRole('list', { name: 'Versions' })).toBeInTheDocument()
  })

  it('opens on the versions when the latest version has no readme, and its Readme tab says so', async () => {
    stubPackage({ '2.0.0': null })
    await renderPackage()
    expect(await screen.findByRole('tab', { name: 'Versions', selected: true })).toBeInTheDocument()
    expect(screen.getByRole('list', { name: 'Versions' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('tab', { name: 'Readme' }))
    expect(await screen.findByText(Messages.noReadme)).toBeInTheDocument()
    expect(screen.queryByTestId('readme')).not.toBeInTheDocument()
  })
})
