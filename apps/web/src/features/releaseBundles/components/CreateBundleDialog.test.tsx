import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { format, Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { json } from '../../../test/fetchStub'
import { renderWithProviders } from '../../../test/render'
import { sentJson, stubRoutes } from '../../../test/routeStub'
import { details, stubDocumentFonts, UI } from '../testData'
import { CreateBundleDialog } from './CreateBundleDialog'

const Markdown = ({ text }: { text: string }) => <div data-testid="markdown">{text}</div>
const REPOSITORIES = [
  { key: 'npm-local', packageType: 'npm' },
  { key: 'files', packageType: 'generic' },
]

async function open(onCreated = vi.fn()) {
  await renderWithProviders(
    <>
      <Notifications />
      <CreateBundleDialog opened onClose={vi.fn()} onCreated={onCreated} repositories={REPOSITORIES} Markdown={Markdown} />
    </>,
  )
  return screen.findByRole('dialog', { name: 'New release bundle' })
}

async function addSource(dialog: HTMLElement, label: string) {
  await userEvent.setup().click(within(dialog).getByRole('button', { name: `Add ${label.toLowerCase()}` }))
}

describe('a new release bundle', { timeout: 40_000 }, () => {
  beforeAll(stubDocumentFonts)
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('asks for a name, a version and a source, then posts the bundle with its package versions and paths', async () => {
    const onCreated = vi.fn()
    const calls = stubRoutes({ [`POST ${UI}/release_bundles`]: () => json(201, details({ state: 'open' })) })
    const dialog = await open(onCreated)
    const user = userEvent.setup()
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription(Messages.fieldMandatory)
    expect(within(dialog).getByText(ReleaseBundleMessages.bundleNeedsSource)).toBeInTheDocument()
    expect(calls).toEqual([])

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'shop')
    await user.type(within(dialog).getByRole('textbox', { name: /^Version/ }), '1.0')
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'The shop')
    await user.type(within(dialog).getByRole('textbox', { name: 'Release notes' }), '# Shop 1.0')
    await user.click(within(dialog).getByRole('tab', { name: 'Preview' }))
    expect(within(dialog).getByTestId('markdown')).toHaveTextContent('# Shop 1.0')

    await addSource(dialog, 'Package version')
    const version = within(dialog).getByRole('group', { name: 'Source 1: Package version' })
    // Picking the repository fills in its package type.
    await user.type(within(version).getByRole('combobox', { name: /Repository/ }), 'npm-l')
    await user.click(await screen.findByRole('option', { name: 'npm-local', hidden: true }))
    expect(within(version).getByRole('combobox', { name: /Package type/ })).toHaveValue('npm')
    await user.type(within(version).getByRole('textbox', { name: /Package name/ }), 'hello')
    await user.type(within(version).getByRole('textbox', { name: /^Version/ }), '1.0.0')

    await addSource(dialog, 'Tree path')
    const path = within(dialog).getByRole('group', { name: 'Source 2: Tree path' })
    await user.type(within(path).getByRole('combobox', { name: /Repository/ }), 'files')
    await user.type(within(path).getByRole('textbox', { name: /Path/ }), 'docs')

    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(
      await screen.findByText(format(ReleaseBundleMessages.bundleCreated, { name: 'shop', version: '1.0' })),
    ).toBeInTheDocument()
    expect(sentJson(calls[0])).toEqual({
      name: 'shop',
      version: '1.0',
      description: 'The shop',
      releaseNotes: '# Shop 1.0',
      sources: [
        { type: 'version', repoKey: 'npm-local', packageType: 'npm', name: 'hello', version: '1.0.0' },
        { type: 'path', repoKey: 'files', path: 'docs' },
      ],
    })
    expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ name: 'shop', version: '1.0' }))
  })

  it('sends a query’s properties and a build, and drops a source taken out again', async () => {
    const calls = stubRoutes({ [`POST ${UI}/release_bundles`]: () => json(201, details({ state: 'open' })) })
    const dialog = await open()
    const user = userEvent.setup()
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'shop')
    await user.type(within(dialog).getByRole('textbox', { name: /^Version/ }), '2')
    await addSource(dialog, 'Tree path')
    await addSource(dialog, 'Query')
    const query = within(dialog).getByRole('group', { name: 'Source 2: Query' })
    await user.type(within(query).getByRole('combobox', { name: /Repository/ }), 'files')
    await user.clear(within(query).getByRole('textbox', { name: /Path pattern/ }))
    await user.type(within(query).getByRole('textbox', { name: /Path pattern/ }), 'docs/*.txt')
    await user.type(within(query).getByRole('textbox', { name: /Properties/ }), 'release=yes{Enter}team = web')

    await addSource(dialog, 'Build')
    const build = within(dialog).getByRole('group', { name: 'Source 3: Build' })
    await user.type(within(build).getByRole('textbox', { name: /Build name/ }), 'app')
    await user.type(within(build).getByRole('textbox', { name: /Build number/ }), '7')

    await user.click(within(dialog).getByRole('button', { name: 'Remove source 1' }))
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(sentJson(calls[0])).toMatchObject({
      sources: [
        { type: 'query', repoKey: 'files', path: 'docs/*.txt', properties: { release: 'yes', team: 'web' } },
        { type: 'build', name: 'app', number: '7' },
      ],
    })
  })

  it('shows a 403 in the dialog as the server said it', async () => {
    stubRoutes({
      [`POST ${UI}/release_bundles`]: () =>
        json(403, {
          errors: [{ status: 403, message: 'You may not read npm-local, so its files cannot go into a release bundle' }],
        }),
    })
    const dialog = await open()
    const user = userEvent.setup()
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'shop')
    await user.type(within(dialog).getByRole('textbox', { name: /^Version/ }), '1.0')
    await addSource(dialog, 'Tree path')
    await user.type(within(dialog).getByRole('combobox', { name: /Repository/ }), 'npm-local')
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You may not read npm-local, so its files cannot go into a release bundle',
    )
    expect(screen.getByRole('dialog', { name: 'New release bundle' })).toBeInTheDocument()
  })

  it('puts a 400’s field errors on their fields, and a 409 in the dialog', async () => {
    let answer = json(400, {
      errors: [
        {
          status: 400,
          message: 'Invalid request: body.version: expected letters, digits; body.sources.0.path: Invalid input: expected string',
        },
      ],
    })
    stubRoutes({ [`POST ${UI}/release_bundles`]: () => answer })
    const dialog = await open()
    const user = userEvent.setup()
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'shop')
    await user.type(within(dialog).getByRole('textbox', { name: /^Version/ }), '1.0')
    await addSource(dialog, 'Tree path')
    await user.type(within(dialog).getByRole('combobox', { name: /Repository/ }), 'files')
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: /^Version/ })).toHaveAccessibleDescription('expected letters, digits'),
    )
    expect(within(dialog).getByRole('textbox', { name: /^Path/ })).toHaveAccessibleDescription(
      expect.stringContaining('Invalid input: expected string'),
    )
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument()

    answer = json(409, { errors: [{ status: 409, message: 'Release bundle shop 1.0 already exists' }] })
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Release bundle shop 1.0 already exists')
  })
})
