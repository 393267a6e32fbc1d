import { Alert, Button, Checkbox, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core'
import { format, Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { useState } from 'react'
import { ApiError } from '../../../lib/api'
import { notify } from '../../../lib/notify'
import { useDistributeBundle } from '../api/distributeBundle'
import { useTargets } from '../api/listTargets'

export interface DistributeDialogProps {
  /** The bundle to send; null keeps the dialog closed */
  bundle: { name: string; version: string } | null
  onClose: () => void
}

/** Picks the targets a signed bundle goes to. Only administrators may list them: anyone else types their names. */
export function DistributeDialog({ bundle, onClose }: DistributeDialogProps) {
  const targets = useTargets(bundle !== null)
  const distribute = useDistributeBundle()
  const [picked, setPicked] = useState<string[]>([])
  const [typed, setTyped] = useState('')
  const forbidden = targets.error instanceof ApiError && targets.error.status === 403
  const chosen = forbidden
    ? typed
        .split(/[\s,]+/)
        .map((t) => t.trim())
        .filter(Boolean)
    : picked
  const close = () => {
    distribute.reset()
    setPicked([])
    setTyped('')
    onClose()
  }
  const send = () => {
    if (!bundle || chosen.length === 0) return
    distribute.mutate(
      { ...bundle, targets: chosen },
      {
        onSuccess: () => {
          notify({
            color: 'green',
            message: format(ReleaseBundleMessages.bundleDistributing, { ...bundle, targets: chosen.join(', ') }),
          })
          close()
        },
      },
    )
  }
  return (
    <Modal
      opened={bundle !== null}
      onClose={close}
      title={bundle ? `Distribute ${bundle.name} ${bundle.version}` : 'Distribute'}
      zIndex={400}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        {targets.isPending ? (
          <Loader size="sm" aria-label="Loading targets" />
        ) : forbidden ? (
          <>
            <Text size="sm" c="dimmed">
              {ReleaseBundleMessages.bundleTargetsAdminOnly}
            </Text>
            <TextInput
              label="Targets"
              placeholder="edge, eu-west"
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              data-autofocus
            />
          </>
        ) : targets.error ? (
          <Alert color="red" variant="light" role="alert">
            {targets.error.message || Messages.somethingWentWrong}
          </Alert>
        ) : targets.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {ReleaseBundleMessages.bundleNoTargets}
          </Text>
        ) : (
          <Checkbox.Group label="Targets" value={picked} onChange={setPicked}>
            <Stack gap="xs" mt="xs">
              {targets.data.map((t) => (
                <Checkbox key={t.name} value={t.name} label={t.name} description={t.url} />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        {distribute.error && (
          <Alert color="red" variant="light" role="alert">
            {distribute.error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button onClick={send} loading={distribute.isPending} disabled={chosen.length === 0}>
            Distribute
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
