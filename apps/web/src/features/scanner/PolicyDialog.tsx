import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Stack, TagsInput, Textarea, TextInput } from '@mantine/core'
import { format } from '@trove/contracts/messages'
import { SEVERITIES, type SecurityPolicy, type Severity } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { notify } from '../../lib/notify'
import { useSavePolicy } from './api/policies'
import { useDialogForm } from './fieldErrors'
import { draftOf, emptyPolicy, POLICY_FIELDS, type PolicyDraft, type PolicyField, policyOf, validatePolicy } from './policyForm'

const ACTIONS = [
  { key: 'notify', label: 'Notify', description: 'Violations are marked for notification' },
  {
    key: 'failBuild',
    label: 'Fail build',
    description: 'A watched build run that CI asks to scan fails, and its record says so',
  },
  {
    key: 'blockDownload',
    label: 'Block download',
    description: 'A scanned version that violates the policy is refused (403) when downloaded from a watched repository',
  },
] as const

const LICENCE_HINT = 'SPDX ids (MIT, Apache-2.0, GPL-3.0-only…): press Enter or comma after each'

export interface PolicyDialogProps {
  opened: boolean
  /** The policy edited; absent: a new one */
  policy?: SecurityPolicy
  onClose: () => void
}

/** Creates or changes a policy; the server's refusals (an unknown licence id, a name taken) show on their fields. */
export function PolicyDialog({ opened, policy, onClose }: PolicyDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={policy ? `Edit policy ${policy.name}` : 'New policy'} size="lg">
      {/* Keyed so each opening starts from the policy as saved. */}
      {opened && <PolicyFormBody key={policy?.name ?? ''} policy={policy} onClose={onClose} />}
    </Modal>
  )
}

function PolicyFormBody({ policy, onClose }: { policy?: SecurityPolicy; onClose: () => void }) {
  const save = useSavePolicy()
  const { draft, change, errorOf, submit, serverError } = useDialogForm<PolicyDraft, PolicyField>({
    initial: () => (policy ? draftOf(policy) : emptyPolicy()),
    validate: validatePolicy,
    fields: POLICY_FIELDS,
  })
  const onSubmit = submit((d, fail) => {
    const body = policyOf(d)
    save.mutate(
      { policy: body, existing: policy?.name },
      {
        onSuccess: () => {
          notify({ color: 'green', message: format(ScreenMessages.scannerPolicySaved, { name: body.name }) })
          onClose()
        },
        onError: fail,
      },
    )
  })

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Policy">
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          data-autofocus
          value={draft.name}
          onChange={(e) => change('name', e.currentTarget.value)}
          // Watches apply a policy by its name and the server does not follow a rename: it stays.
          readOnly={policy !== undefined}
          description={policy ? 'Watches apply the policy by this name' : undefined}
          error={errorOf('name')}
        />
        <Textarea
          label="Description"
          rows={2}
          value={draft.description}
          onChange={(e) => change('description', e.currentTarget.value)}
          error={errorOf('description')}
        />
        <NativeSelect
          label="Minimum severity"
          description="Findings of this severity or worse violate the policy"
          value={draft.minSeverity}
          onChange={(e) => change('minSeverity', e.currentTarget.value as Severity | '')}
          data={[{ value: '', label: 'None: licences only' }, ...SEVERITIES.map((s) => ({ value: s, label: s }))]}
          error={errorOf('minSeverity')}
        />
        <TagsInput
          label="Allowed licences"
          description={`${LICENCE_HINT}. Empty: any licence is allowed.`}
          value={draft.allowedLicenses}
          onChange={(v) => change('allowedLicenses', v)}
          splitChars={[',', ' ']}
          clearable
          error={errorOf('allowedLicenses')}
        />
        <TagsInput
          label="Denied licences"
          description={LICENCE_HINT}
          value={draft.deniedLicenses}
          onChange={(v) => change('deniedLicenses', v)}
          splitChars={[',', ' ']}
          clearable
          error={errorOf('deniedLicenses')}
        />
        <Checkbox.Group
          label="Actions"
          description="What follows a violation"
          value={ACTIONS.filter((a) => draft.actions[a.key]).map((a) => a.key)}
          onChange={(keys) =>
            change('actions', {
              notify: keys.includes('notify'),
              failBuild: keys.includes('failBuild'),
              blockDownload: keys.includes('blockDownload'),
            })
          }
        >
          <Stack gap={6} mt={6}>
            {ACTIONS.map((a) => (
              <Checkbox key={a.key} value={a.key} label={a.label} description={a.description} />
            ))}
          </Stack>
        </Checkbox.Group>
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
            {policy ? 'Save' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
