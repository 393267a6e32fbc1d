import { Alert, Button, Group, Modal, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { format } from '@trove/contracts/messages'
import type { Violation } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { notify } from '../../lib/notify'
import { useAddIgnoreRule } from './api/ignoreRules'
import { useDialogForm } from './fieldErrors'
import {
  dayOf,
  emptyIgnore,
  IGNORE_FIELDS,
  type IgnoreDraft,
  type IgnoreField,
  type IgnoreScope,
  ignoreRuleOf,
  validateIgnore,
} from './ignoreForm'

export interface IgnoreDialogProps {
  /** The violation to ignore; null keeps the dialog closed */
  violation: Violation | null
  onClose: () => void
}

/** Accepts a violation with a reason and, if wanted, an expiry: an ignore rule, written to the audit log. */
export function IgnoreDialog({ violation, onClose }: IgnoreDialogProps) {
  return (
    <Modal opened={violation !== null} onClose={onClose} title="Ignore violation" size="lg">
      {violation && <IgnoreFormBody violation={violation} onClose={onClose} />}
    </Modal>
  )
}

function IgnoreFormBody({ violation, onClose }: { violation: Violation; onClose: () => void }) {
  const add = useAddIgnoreRule()
  const today = new Date()
  const { draft, setDraft, errorOf, submit, serverError } = useDialogForm<IgnoreDraft, IgnoreField>({
    initial: emptyIgnore,
    validate: (d) => validateIgnore(d, today),
    fields: IGNORE_FIELDS,
  })
  const what = violation.type === 'security' ? violation.issue : `the licence ${violation.issue}`
  const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1)

  const onSubmit = submit((d, fail) => {
    add.mutate(ignoreRuleOf(violation, d), {
      onSuccess: () => {
        notify({ color: 'green', message: format(ScreenMessages.scannerIgnoreCreated, { issue: violation.issue }) })
        onClose()
      },
      onError: fail,
    })
  })

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Ignore rule">
      <Stack gap="sm">
        <Text size="sm">
          Ignore <b>{what}</b> found in {violation.component}@{violation.componentVersion} of {violation.packageId}@
          {violation.version}.
        </Text>
        <Radio.Group label="Ignore it" value={draft.scope} onChange={(v) => setDraft((d) => ({ ...d, scope: v as IgnoreScope }))}>
          <Stack gap={6} mt={6}>
            <Radio value="version" label={`In ${violation.packageId}@${violation.version} only`} />
            <Radio value="package" label={`In every version of ${violation.packageId}`} />
            <Radio value="everywhere" label="Everywhere" />
          </Stack>
        </Radio.Group>
        <Textarea
          label="Reason"
          required
          data-autofocus
          rows={2}
          value={draft.reason}
          onChange={(e) => {
            const reason = e.currentTarget.value
            setDraft((d) => ({ ...d, reason }))
          }}
          error={errorOf('reason')}
        />
        <TextInput
          type="date"
          label="Expires"
          description="The last day the rule holds; empty: until it is removed"
          min={dayOf(tomorrow)}
          value={draft.expires}
          onChange={(e) => {
            const expires = e.currentTarget.value
            setDraft((d) => ({ ...d, expires }))
          }}
          error={errorOf('expiresAt')}
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
          <Button type="submit" loading={add.isPending}>
            Ignore
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
