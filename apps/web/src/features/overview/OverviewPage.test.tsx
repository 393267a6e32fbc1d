import { screen, within } from '@testing-library/react'
import type { Dashboard } from '@trove/contracts/dashboard'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { ago } from './components/NodesCard'
import { storageGrowth } from './components/StorageCards'
import { OverviewPage } from './OverviewPage'

afterEach(() => vi.unstubAllGlobals())

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0)
const DAY_MS = 86_400_000
const isoDay = (daysAgo: number) => new Date(NOW - daysAgo * DAY_MS).toISOString().slice(0, 10)
const month = (f: (daysAgo: number) => object) => Array.from({ length: 30 }, (_, i) => ({ day: isoDay(29 - i), ...f(29 - i) }))

/** An instance with nothing in it yet, as the server answers it. */
const empty = (over: Partial<Dashboard> = {}): Dashboard => ({
  scope: 'instance',
  generatedAt: NOW,
  totals: { repositories: 0, files: 0, bytes: 0, downloads: 0, uploads: 0 },
  repositories: [],
  storage: month(() => ({ bytes: 0, byRepository: { other: 0 } })) as Dashboard['storage'],
  traffic: month(() => ({ downloads: 0, uploads: 0 })) as Dashboard['traffic'],
  topPackages: [],
  vulnerabilities: { counts: { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 }, newestCritical: [] },
  activity: [],
  nodes: [{ nodeId: 'node-a', status: 'Online', services: ['repository', 'scanner'], lastHeartbeat: NOW - 5000 }],
  ...over,
})

/** An instance in use: two repositories, a published package downloaded, a critical finding. */
const busy = (over: Partial<Dashboard> = {}): Dashboard =>
  empty({
    totals: { repositories: 3, files: 1234, bytes: 5 * 1024 * 1024, downloads: 4321, uploads: 17 },
    repositories: [
      { repoKey: 'npm-local', packageType: 'npm', rclass: 'local', bytes: 4 * 1024 * 1024, files: 1200, downloads: 4000 },
      { repoKey: 'libs-release', packageType: 'maven', rclass: 'local', bytes: 1024 * 1024, files: 34, downloads: 321 },
    ],
    storage: month((d) => ({
      bytes: 5 * 1024 * 1024 - d * 1000,
      byRepository: { 'npm-local': 4 * 1024 * 1024 - d * 1000, 'libs-release': 1024 * 1024 },
    })) as Dashboard['storage'],
    traffic: month((d) => ({ downloads: d === 0 ? 4321 : 0, uploads: d === 0 ? 17 : 0 })) as Dashboard['traffic'],
    topPackages: [
      { packageType: 'npm', name: '@acme/hello-trove', latestVersion: '1.2.3', downloads: 4000 },
      { packageType: 'maven', name: 'com.acme:lib', latestVersion: null, downloads: 321 },
    ],
    vulnerabilities: {
      counts: { critical: 2, high: 1, medium: 0, low: 4, unknown: 0 },
      newestCritical: [
        {
          packageType: 'npm',
          name: 'left-pad',
          version: '0.0.1',
          repoKey: 'npm-local',
          critical: 2,
          scannedAt: NOW - 1000,
          advisories: ['GHSA-aaaa-bbbb-cccc', 'CVE-2026-0001'],
        },
      ],
    },
    activity: [
      {
        at: NOW - 60_000,
        kind: 'publish',
        actor: 'admin',
        repoKey: 'npm-local',
        packageType: 'npm',
        name: '@acme/hello-trove',
        version: '1.2.3',
        action: null,
        target: null,
      },
      {
        at: NOW - 120_000,
        kind: 'delete',
        actor: null,
        repoKey: 'libs-release',
        packageType: 'maven',
        name: 'com.acme:old',
        version: '0.9',
        action: null,
        target: null,
      },
      {
        at: NOW - 180_000,
        kind: 'signin',
        actor: 'alice',
        repoKey: null,
        packageType: null,
        name: null,
        version: null,
        action: null,
        target: null,
      },
      {
        at: NOW - 240_000,
        kind: 'access',
        actor: 'admin',
        repoKey: null,
        packageType: null,
        name: null,
        version: null,
        action: 'permission.update',
        target: 'permission readers',
      },
    ],
    ...over,
  })

const answer = (body: Dashboard) => stubFetch({ '/ui/api/v1/ui/dashboard': () => json(200, body) })
const card = (name: string) => screen.getByRole('region', { name })
const hrefOf = (link: HTMLElement) => link.getAttribute('href')

describe('OverviewPage', () => {
  it('keeps the title and breadcrumb Overview', async () => {
    answer(empty())
    await renderWithProviders(<OverviewPage />)
    expect(screen.getByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument()
    expect(within(screen.getByLabelText('Breadcrumb')).getByText('Overview')).toBeInTheDocument()
    expect(await screen.findByText('The instance at a glance')).toBeInTheDocument()
  })

  it("shows the server's figures, each linked to the screen that lists it", async () => {
    answer(busy())
    await renderWithProviders(<OverviewPage />)
    const repositories = within(await screen.findByRole('region', { name: 'Repositories' })).getByRole('link', { name: '3' })
    expect(hrefOf(repositories)).toBe('/admin/repositories')
    expect(hrefOf(within(card('Storage used')).getByRole('link', { name: '5.0 MB' }))).toBe('/artifacts/browse')
    expect(hrefOf(within(card('Files')).getByRole('link', { name: '1,234' }))).toBe('/artifacts/browse')
    expect(hrefOf(within(card('Downloads')).getByRole('link', { name: '4,321' }))).toBe('/packages')
    expect(hrefOf(within(card('Uploads')).getByRole('link', { name: '17' }))).toBe('/artifacts/browse')

    // Storage per repository, largest first, each opening its tree.
    const storage = within(card('Storage by repository'))
    const repoLinks = within(storage.getByLabelText('Repositories by storage')).getAllByRole('link')
    expect(repoLinks.map((l) => l.textContent)).toEqual(['npm-local', 'libs-release'])
    expect(hrefOf(repoLinks[0] as HTMLElement)).toBe('/artifacts/browse/tree/General/npm-local')
    expect(storage.getByText('4.0 MB · 1,200 files')).toBeInTheDocument()
    expect(hrefOf(storage.getByRole('link', { name: 'All repositories' }))).toBe('/admin/repositories')

    // The most downloaded packages, each opening its package page.
    const top = within(card('Most downloaded packages'))
    expect(hrefOf(top.getByRole('link', { name: '@acme/hello-trove' }))).toBe(
      `/packages/${encodeURIComponent('npm://@acme/hello-trove')}`,
    )
    expect(top.getByLabelText('@acme/hello-trove downloads')).toHaveTextContent('4,000')
    expect(top.getByLabelText('com.acme:lib downloads')).toHaveTextContent('321')

    // Vulnerabilities by severity, and the newest critical version opening its version page.
    const vulns = within(card('Vulnerabilities'))
    expect(vulns.getByLabelText('critical vulnerabilities')).toHaveTextContent('2')
    expect(vulns.getByLabelText('low vulnerabilities')).toHaveTextContent('4')
    expect(hrefOf(vulns.getByRole('link', { name: 'left-pad 0.0.1' }))).toBe(
      `/packages/${encodeURIComponent('npm://left-pad')}/0.0.1`,
    )
    expect(vulns.getByText('GHSA-aaaa-bbbb-cccc, CVE-2026-0001 · 2 critical')).toBeInTheDocument()
    expect(hrefOf(vulns.getByRole('link', { name: 'Violations' }))).toBe('/admin/security_violations')

    // Activity, newest first, each naming what it is about.
    const items = within(within(card('Recent activity')).getByRole('list', { name: 'Recent activity' })).getAllByRole('listitem')
    expect(items.map((li) => within(li).getAllByText(/./)[0]?.textContent)).toEqual([
      'Published',
      'Deleted',
      'Signed in',
      'Access',
    ])
    expect(hrefOf(within(items[0] as HTMLElement).getByRole('link', { name: '@acme/hello-trove 1.2.3' }))).toBe(
      `/packages/${encodeURIComponent('npm://@acme/hello-trove')}/1.2.3`,
    )
    expect(hrefOf(within(items[1] as HTMLElement).getByRole('link', { name: 'libs-release' }))).toBe(
      '/artifacts/browse/tree/General/libs-release',
    )
    expect(hrefOf(within(items[2] as HTMLElement).getByRole('link', { name: 'alice' }))).toBe('/admin/management/users/alice')
    expect(hrefOf(within(items[3] as HTMLElement).getByRole('link', { name: /permission\.update/ }))).toBe(
      '/admin/management/audit',
    )

    // The storage bars, the growth, the traffic and the severities are drawn.
    expect(document.querySelectorAll('.recharts-responsive-container')).toHaveLength(4)

    // Each node by its heartbeat.
    const nodes = within(card('Nodes'))
    expect(nodes.getByText('node-a')).toBeInTheDocument()
    expect(nodes.getByText('Online')).toBeInTheDocument()
    expect(nodes.getByText('repository · scanner')).toBeInTheDocument()
    expect(nodes.getByText('heartbeat 5 s ago')).toBeInTheDocument()
  })

  it('names a critical version without advisories by its count alone', async () => {
    const v = busy().vulnerabilities
    if (!v) throw new Error('busy() has vulnerabilities')
    const first = v.newestCritical[0]
    if (!first) throw new Error('busy() has a critical version')
    answer(busy({ vulnerabilities: { ...v, newestCritical: [{ ...first, advisories: [] }] } }))
    await renderWithProviders(<OverviewPage />)
    expect(
      await within(await screen.findByRole('region', { name: 'Vulnerabilities' })).findByText('2 critical'),
    ).toBeInTheDocument()
  })

  it('draws no empty chart on an empty instance: each card says what is missing', async () => {
    answer(empty({ vulnerabilities: null }))
    await renderWithProviders(<OverviewPage />)
    expect(
      await within(await screen.findByRole('region', { name: 'Storage by repository' })).findByText('Nothing stored yet'),
    ).toBeInTheDocument()
    expect(within(card('Storage growth, last 30 days')).getByText('Nothing stored yet')).toBeInTheDocument()
    expect(
      within(card('Downloads and uploads per day, last 30 days')).getByText('No download or upload in the last 30 days'),
    ).toBeInTheDocument()
    expect(within(card('Most downloaded packages')).getByText('No package downloaded yet')).toBeInTheDocument()
    expect(within(card('Recent activity')).getByText('Nothing happened yet')).toBeInTheDocument()
    expect(within(card('Vulnerabilities')).getByText(/No node runs the scanner/)).toBeInTheDocument()
    expect(within(card('Repositories')).getByRole('link', { name: '0' })).toBeInTheDocument()
    expect(within(card('Storage used')).getByRole('link', { name: '0 B' })).toBeInTheDocument()
    // No chart is drawn at all on an empty instance.
    expect(document.querySelector('.recharts-responsive-container')).toBeNull()
  })

  it('shows a user only their own view: no nodes and no link into administration', async () => {
    answer(
      busy({
        scope: 'readable',
        nodes: null,
        activity: busy().activity.filter((a) => a.kind !== 'access'),
      }),
    )
    await renderWithProviders(<OverviewPage />)
    expect(await screen.findByText('The repositories you can read, at a glance')).toBeInTheDocument()
    expect(within(card('Repositories')).getByText('that you can read')).toBeInTheDocument()
    expect(hrefOf(within(card('Repositories')).getByRole('link', { name: '3' }))).toBe('/artifacts/browse')
    expect(screen.queryByRole('region', { name: 'Nodes' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Violations' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'All repositories' })).not.toBeInTheDocument()
    // A sign-in is the user's own, as plain text.
    expect(within(card('Recent activity')).queryByRole('link', { name: 'alice' })).not.toBeInTheDocument()
    expect(within(card('Recent activity')).getByText('alice')).toBeInTheDocument()
    const admin = screen.getAllByRole('link').filter((l) => hrefOf(l)?.startsWith('/admin'))
    expect(admin.map(hrefOf)).toEqual([])
  })

  it('tells a user without a scanner that it is off, without the setting only an administrator can change', async () => {
    answer(empty({ scope: 'readable', nodes: null, vulnerabilities: null }))
    await renderWithProviders(<OverviewPage />)
    expect(
      await within(await screen.findByRole('region', { name: 'Vulnerabilities' })).findByText(
        'The security scanner is not running on this instance.',
      ),
    ).toBeInTheDocument()
    expect(screen.queryByText('TROVE_MODULES')).not.toBeInTheDocument()
  })

  it("shows the server's refusal when the dashboard does not load", async () => {
    stubFetch({
      '/ui/api/v1/ui/dashboard': () => json(500, { errors: [{ status: 500, message: 'The database is away' }] }),
    })
    await renderWithProviders(<OverviewPage />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('The dashboard did not load')
    expect(alert).toHaveTextContent('The database is away')
  })
})

describe('ago', () => {
  it('reads a heartbeat in seconds, minutes, hours or days', () => {
    expect(ago(NOW - 5000, NOW)).toBe('5 s ago')
    expect(ago(NOW - 10 * 60_000, NOW)).toBe('10 min ago')
    expect(ago(NOW - 5 * 3_600_000, NOW)).toBe('5 h ago')
    expect(ago(NOW - 3 * DAY_MS, NOW)).toBe('3 days ago')
  })
})

describe('storageGrowth', () => {
  it('keys each repository by position, so a dotted key is not read as a path, and labels it with the key', () => {
    const data = busy({
      repositories: [{ repoKey: 'libs.release', packageType: 'maven', rclass: 'local', bytes: 300, files: 3, downloads: 0 }],
      storage: [
        { day: isoDay(1), bytes: 250, byRepository: { 'libs.release': 200, other: 50 } },
        { day: isoDay(0), bytes: 360, byRepository: { 'libs.release': 300, other: 60 } },
      ],
    })
    const { series, rows } = storageGrowth(data)
    expect(series.map((s) => [s.label, s.color])).toEqual([
      ['libs.release', 'blue.6'],
      ['Other repositories', 'gray.5'],
    ])
    for (const s of series) expect(s.name).not.toContain('.')
    expect(rows).toEqual([
      { day: 'Dec 1', r0: 200, other: 50 },
      { day: 'Dec 2', r0: 300, other: 60 },
    ])
  })

  it('draws no "other" series when every repository is drawn', () => {
    const { series } = storageGrowth(busy())
    expect(series.map((s) => s.label)).toEqual(['npm-local', 'libs-release'])
  })
})
