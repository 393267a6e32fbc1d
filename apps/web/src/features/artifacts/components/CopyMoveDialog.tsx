import { Alert, Button, Group, List, Modal, Select, Stack, Text, TextInput } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import type { CopyMoveResponse } from '@trove/contracts/artifacts'
import { useState } from 'react'
import { ApiError } from '../../../lib/api'
import { copyOrMove, type NodeAddress } from '../api/artifactsApi'

export interface CopyMoveDialogProps {
  op: 'copy' | 'move'
  opened: boolean
  onClose: () => void
  source: NodeAddress
  /** Local repositories the caller may deploy to. */
  targets: string[]
  onDone: (targetRepoKey: string, targetPath: string) => void
}

const errorText = (e: unknown) => (e instanceof ApiError && e.message ? e.message : 'The request failed')

/**
 * Copy or move: pick the target repository and path, run a dry run that lists what would happen
 * (conflicts first), then confirm.
 */
export function CopyMoveDialog({ op, opened, onClose, source, targets, onDone }: CopyMoveDialogProps) {
  const [target, setTarget] = useState<string | null>(null)
  const [path, setPath] = useState(source.path)
  const [plan, setPlan] = useState<CopyMoveResponse | null>(null)
  const verb = op === 'copy' ? 'Copy' : 'Move'
  const request = (dryRun: boolean) => ({
    repoKey: source.repoKey,
    path: source.path,
    targetRepoKey: target ?? '',
    targetPath: path,
    dryRun,
  })
  const dry = useMutation({ mutationFn: () => copyOrMove(op, request(true)), onSuccess: setPlan })
  const run = useMutation({
    mutationFn: () => copyOrMove(op, request(false)),
    onSuccess: () => {
      onDone(target ?? '', path)
      close()
    },
  })
  const close = () => {
    setPlan(null)
    dry.reset()
    run.reset()
    onClose()
  }
  const change = (f: () => void) => {
    f()
    setPlan(null)
  }
  return (
    <Modal opened={opened} onClose={close} title={`${verb} ${source.path || source.repoKey}`} size="lg">
      <Stack>
        <Select
          label="Target repository"
          placeholder="A local repository"
          data={targets}
          value={target}
          onChange={(v) => change(() => setTarget(v))}
          searchable
          nothingFoundMessage="No local repository you may deploy to"
        />
        <TextInput label="Target path" value={path} onChange={(e) => change(() => setPath(e.currentTarget.value))} />
        {plan && (
          <Alert color={plan.refused ? 'red' : plan.conflicts.length > 0 ? 'yellow' : 'teal'} title="Dry run" role="status">
            <Text size="sm">
              {plan.files} file(s) would be {op === 'copy' ? 'copied' : 'moved'} to {target}
              {path ? `/${path}` : ''}.
            </Text>
            {plan.messages.map((m) => (
              <Text key={m} size="sm">
                {m}
              </Text>
            ))}
            {plan.conflicts.length > 0 && (
              <List size="sm" aria-label="Conflicts">
                {plan.conflicts.slice(0, 20).map((c) => (
                  <List.Item key={c}>{c}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        {(dry.isError || run.isError) && <Alert color="red">{errorText(dry.error ?? run.error)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button variant="light" onClick={() => dry.mutate()} disabled={!target} loading={dry.isPending}>
            Dry run
          </Button>
          <Button onClick={() => run.mutate()} disabled={!plan || plan.refused} loading={run.isPending}>
            {verb}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
