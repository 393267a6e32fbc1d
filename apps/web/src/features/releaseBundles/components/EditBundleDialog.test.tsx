import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { BundleDetails, BundleFile } from '@trove/contracts/distribution'
import { format, Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { json } from '../../../test/fetchStub'
import { renderWithProviders } from '../../../test/render'
import { type StubCall, sentJson, stubRoutes } from '../../../test/routeStub'
import { ReleaseBundlesPage } from '../ReleaseBundlesPage'
import { details, stubDocumentFonts, summary, UI } from '../testData'

const Markdown = ({ text }: { text: string }) => <div>{text}</div>
const REPOSITORIES = [
  { key: 'files', packageType: 'generic' },
  { key: 'npm-local', packageType: 'npm' },
]
const file = (path: string, over: Partial<BundleFile> = {}): BundleFile => ({
  repoKey: 'files',
  path,
  sha256: 'a'.repeat(64),
  sha1: 'b'.repeat(40),
  md5: 'c'.repeat(32),
  size: 10,
  packageType: null,
  packageName: null,
  packageVersion: null,
  ...over,
})
const HELLO = file('hello/-/hello-1.0.0.tgz', { repoKey: 'npm-local', packageType: 'npm', packageName: 'hello' })
const open = (over: Partial<BundleDetails> = {}) =>
  details({
    state: 'open',
    signedAt: null,
    keyId: null,
    signature: null,
    files: 2,
    contents: [HELLO, file('docs/a.txt')],
    ...over,
  })

/** The source tab with a bundle open in its drawer, answering the list and the details from `bundle`. */
async function openDrawer(routes: Record<string, (call: StubCall) => Response>, bundle: () => BundleDetails) {
  const calls = stubRoutes({
    [`GET ${UI}/release_bundles`]: () => {
      const { releaseNotes, keyId, signature, contents, distributions, ...rest } = bundle()
      return json(200, { bundles: [summary(rest)] })
    },
    [`GET ${UI}/release_bundles/shop/1.0`]: () => json(200, bundle()),
    ...routes,
  })
  await renderWithProviders(
    <>
      <Notifications />
      <ReleaseBundlesPage
        tab="source"
        onTab={vi.fn()}
        admin={false}
        distributionRunning
        query=""
        repositories={REPOSITORIES}
        Markdown={Markdown}
      />
    </>,
  )
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Open shop 1.0' }))
  const drawer = await screen.findByRole('dialog', { name: /shop/ })
  await user.click(await within(drawer).findByRole('button', { name: 'Edit' }))
  return { calls, user, drawer, dialog: await screen.findByRole('dialog', { name: 'Edit shop 1.0' }) }
}

describe('editing an open bundle', { timeout: 40_000 }, () => {
  beforeAll(stubDocumentFonts)
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('changes its description, leaves a file out and adds a tree path, then shows the bundle as saved in the drawer and the list', async () => {
    let bundle = open()
    const { calls, user, drawer, dialog } = await openDrawer(
      {
        [`PATCH ${UI}/release_bundles/shop/1.0`]: () => {
          bundle = open({ description: 'The new shop', files: 2, contents: [file('docs/a.txt'), file('docs/b.txt')] })
          return json(200, bundle)
        },
      },
      () => bundle,
    )
    const description = within(dialog).getByRole('textbox', { name: 'Description' })
    expect(description).toHaveValue('The shop')
    await user.clear(description)
    await user.type(description, 'The new shop')

    const files = within(dialog).getByRole('table', { name: 'Files in the bundle' })
    await user.click(within(files).getByRole('button', { name: 'Leave out npm-local/hello/-/hello-1.0.0.tgz' }))
    await user.click(within(files).getByRole('button', { name: 'Leave out files/docs/a.txt' }))
    // Changed one's mind: a.txt stays.
    await user.click(within(files).getByRole('button', { name: 'Keep files/docs/a.txt' }))
    expect(within(dialog).getByText('1 to leave out')).toBeInTheDocument()

    // A source is checked like the new bundle dialog's before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Add build' }))
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByRole('textbox', { name: /Build name/ })).toHaveAccessibleDescription(Messages.fieldMandatory)
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false)
    await user.click(within(dialog).getByRole('button', { name: 'Remove source 1' }))

    await user.click(within(dialog).getByRole('button', { name: 'Add tree path' }))
    const path = within(dialog).getByRole('group', { name: 'Source 1: Tree path' })
    await user.type(within(path).getByRole('combobox', { name: /Repository/ }), 'files')
    await user.type(within(path).getByRole('textbox', { name: /Path/ }), 'docs/b.txt')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))

    expect(
      await screen.findByText(format(ReleaseBundleMessages.bundleUpdated, { name: 'shop', version: '1.0' })),
    ).toBeInTheDocument()
    // Only what changed: the notes were left as they were.
    expect(sentJson(calls.find((c) => c.method === 'PATCH'))).toEqual({
      description: 'The new shop',
      add: [{ type: 'path', repoKey: 'files', path: 'docs/b.txt' }],
      remove: ['npm-local/hello/-/hello-1.0.0.tgz'],
    })
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit shop 1.0' })).not.toBeInTheDocument())
    const contents = within(drawer).getByRole('table', { name: 'Contents' })
    expect(await within(contents).findByRole('row', { name: /docs\/b\.txt/ })).toBeInTheDocument()
    expect(within(contents).queryByRole('row', { name: /hello-1\.0\.0\.tgz/ })).not.toBeInTheDocument()
    const list = screen.getByRole('table', { name: 'Release bundles made here' })
    expect(await within(list).findByText('The new shop')).toBeInTheDocument()
  })

  it('puts a 400 on the fields it names and shows a 409 in the dialog', async () => {
    let answer = json(400, {
      errors: [
        { status: 400, message: 'Invalid request: body.add.0.path: Invalid input: expected string; body.releaseNotes: Too big' },
      ],
    })
    const { user, dialog } = await openDrawer({ [`PATCH ${UI}/release_bundles/shop/1.0`]: () => answer }, open)
    await user.type(within(dialog).getByRole('textbox', { name: 'Release notes' }), ' More.')
    await user.click(within(dialog).getByRole('button', { name: 'Add tree path' }))
    await user.type(within(dialog).getByRole('combobox', { name: /Repository/ }), 'files')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: /^Path/ })).toHaveAccessibleDescription(
        expect.stringContaining('Invalid input: expected string'),
      ),
    )
    expect(within(dialog).getByRole('textbox', { name: 'Release notes' })).toHaveAccessibleDescription(
      expect.stringContaining('Too big'),
    )
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument()

    answer = json(409, { errors: [{ status: 409, message: 'Release bundle shop 1.0 is signed: it cannot change' }] })
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Release bundle shop 1.0 is signed: it cannot change')
    expect(screen.getByRole('dialog', { name: 'Edit shop 1.0' })).toBeInTheDocument()
  })

  it('sends nothing when nothing changed', async () => {
    const { calls, user, dialog } = await openDrawer({}, open)
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit shop 1.0' })).not.toBeInTheDocument())
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([])
  })
})
