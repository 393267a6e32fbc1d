import { Alert, Button, Card, Group, Loader, NumberInput, Stack, Switch, Text, Title } from '@mantine/core'
import type { RetentionPolicy } from '@trove/contracts/distribution'
import { format, Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { type FormEvent, useState } from 'react'
import { notify } from '../../../lib/notify'
import { useRetention, useSaveRetention } from '../api/retention'
import { useRunRetention } from '../api/runRetention'

/** How received bundles are kept (administrators): the newest N versions of each, none older than D days. */
export function RetentionPanel() {
  const retention = useRetention()
  return (
    <Card withBorder padding="md" component="section" aria-label="Retention">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Retention
        </Title>
        <Text size="sm" c="dimmed">
          Applied after every bundle received, and on request. What it removes goes with its files and is recorded in the history.
        </Text>
        {retention.isPending ? (
          <Loader size="sm" aria-label="Loading retention" />
        ) : retention.error ? (
          <Alert color="red" variant="light" role="alert">
            {retention.error.message || Messages.somethingWentWrong}
          </Alert>
        ) : (
          <RetentionForm stored={retention.data} />
        )}
      </Stack>
    </Card>
  )
}

function RetentionForm({ stored }: { stored: RetentionPolicy }) {
  const save = useSaveRetention()
  const run = useRunRetention()
  const [policy, setPolicy] = useState(stored)
  const changed =
    policy.enable !== stored.enable || policy.keepLast !== stored.keepLast || policy.maxAgeDays !== stored.maxAgeDays
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate(policy, {
      onSuccess: (next) => {
        setPolicy(next)
        notify({ color: 'green', message: ReleaseBundleMessages.bundleRetentionSaved })
      },
      onError: (error) => notify({ color: 'red', message: error.message || Messages.somethingWentWrong }),
    })
  }
  const runNow = () =>
    run.mutate(undefined, {
      onSuccess: ({ removed }) =>
        notify({
          color: 'green',
          message:
            removed.length === 0
              ? ReleaseBundleMessages.bundleRetentionRemovedNothing
              : format(ReleaseBundleMessages.bundleRetentionRemoved, { bundles: removed.join(', ') }),
        }),
      onError: (error) => notify({ color: 'red', message: error.message || Messages.somethingWentWrong }),
    })
  const count = (v: string | number) => (typeof v === 'number' ? Math.max(0, Math.floor(v)) : 0)
  return (
    <form onSubmit={submit} aria-label="Retention policy">
      <Stack gap="sm">
        <Switch
          label="Remove old received bundles"
          checked={policy.enable}
          onChange={(e) => setPolicy((p) => ({ ...p, enable: e.currentTarget.checked }))}
        />
        <Group grow align="flex-start">
          <NumberInput
            label="Keep the last versions"
            description="Of each bundle; 0 for no limit"
            min={0}
            max={10_000}
            allowDecimal={false}
            allowNegative={false}
            disabled={!policy.enable}
            value={policy.keepLast}
            onChange={(v) => setPolicy((p) => ({ ...p, keepLast: count(v) }))}
          />
          <NumberInput
            label="Maximum age in days"
            description="Since received; 0 for no limit"
            min={0}
            max={36_500}
            allowDecimal={false}
            allowNegative={false}
            disabled={!policy.enable}
            value={policy.maxAgeDays}
            onChange={(v) => setPolicy((p) => ({ ...p, maxAgeDays: count(v) }))}
          />
        </Group>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={runNow} loading={run.isPending} disabled={!stored.enable || changed}>
            Run now
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!changed}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
