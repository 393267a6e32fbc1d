import { Alert, Button, Checkbox, Group, Modal, MultiSelect, Stack, TagsInput, TextInput } from '@mantine/core'
import { format } from '@trove/contracts/messages'
import type { SecurityWatch } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { notify } from '../../lib/notify'
import { usePolicies } from './api/policies'
import { useSaveWatch } from './api/watches'
import { useDialogForm } from './fieldErrors'
import { emptyWatch, validateWatch, WATCH_FIELDS, type WatchDraft, type WatchField, watchDraftOf, watchOf } from './watchForm'

export interface WatchDialogProps {
  opened: boolean
  watch?: SecurityWatch
  /** The repository keys to pick from */
  repositories: string[]
  onClose: () => void
}

/** Creates or changes a watch: its repositories (or all), projects and builds, and the policies applied to them. */
export function WatchDialog({ opened, watch, repositories, onClose }: WatchDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={watch ? `Edit watch ${watch.name}` : 'New watch'} size="lg">
      {opened && <WatchFormBody key={watch?.name ?? ''} watch={watch} repositories={repositories} onClose={onClose} />}
    </Modal>
  )
}

function WatchFormBody({ watch, repositories, onClose }: Omit<WatchDialogProps, 'opened'>) {
  const save = useSaveWatch()
  const policies = usePolicies()
  const { draft, change, errorOf, submit, serverError } = useDialogForm<WatchDraft, WatchField>({
    initial: () => (watch ? watchDraftOf(watch) : emptyWatch()),
    validate: validateWatch,
    fields: WATCH_FIELDS,
  })
  // A repository or policy the watch names but that is gone stays choosable, so saving keeps or drops it knowingly.
  const repoChoices = [...new Set([...repositories, ...draft.repositories])].sort()
  const policyChoices = [...new Set([...(policies.data ?? []).map((p) => p.name), ...draft.policies])].sort()

  const onSubmit = submit((d, fail) => {
    const body = watchOf(d)
    save.mutate(
      { watch: body, existing: watch?.name },
      {
        onSuccess: () => {
          notify({ color: 'green', message: format(ScreenMessages.scannerWatchSaved, { name: body.name }) })
          onClose()
        },
        onError: fail,
      },
    )
  })

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Watch">
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          data-autofocus
          value={draft.name}
          onChange={(e) => change('name', e.currentTarget.value)}
          error={errorOf('name')}
        />
        <Checkbox
          label="All repositories"
          description="Every repository, including those created later"
          checked={draft.allRepositories}
          onChange={(e) => change('allRepositories', e.currentTarget.checked)}
        />
        <MultiSelect
          label="Repositories"
          placeholder={draft.allRepositories ? 'All repositories' : 'Pick repositories'}
          data={repoChoices}
          value={draft.allRepositories ? [] : draft.repositories}
          onChange={(v) => change('repositories', v)}
          disabled={draft.allRepositories}
          searchable
          clearable
          nothingFoundMessage="No repository matches"
          error={errorOf('repositories')}
        />
        <TagsInput
          label="Projects"
          description="The repositories of these projects (keys starting with the project key and a dash)"
          placeholder="Project keys; Enter adds one"
          value={draft.projects}
          onChange={(v) => change('projects', v)}
        />
        <TagsInput
          label="Builds"
          description="Build runs judged when CI asks to scan them; * is every build"
          placeholder="Build names; Enter adds one"
          value={draft.builds}
          onChange={(v) => change('builds', v)}
        />
        {policies.isSuccess && policies.data.length === 0 && (
          <Alert color="orange" variant="light">
            {ScreenMessages.scannerNoPoliciesToApply}
          </Alert>
        )}
        <MultiSelect
          label="Policies"
          required
          placeholder="Pick the policies applied"
          data={policyChoices}
          value={draft.policies}
          onChange={(v) => change('policies', v)}
          searchable
          nothingFoundMessage="No policy matches"
          error={errorOf('policies')}
        />
        {serverError && (
          <Alert color="red" variant="light" role="alert">
            {serverError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {watch ? 'Save' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
