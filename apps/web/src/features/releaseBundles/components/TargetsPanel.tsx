import { Alert, Button, Card, Group, Loader, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { BUNDLE_NAME } from '@trove/contracts/distribution'
import { format, Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { type FormEvent, useState } from 'react'
import { notify } from '../../../lib/notify'
import { useDeleteTarget } from '../api/deleteTarget'
import { useTargets } from '../api/listTargets'
import { useSaveTarget } from '../api/saveTarget'
import { when } from '../when'
import { ConfirmDialog } from './ConfirmDialog'

type Field = 'name' | 'url' | 'token'

/** A 400 that names a field ("Invalid request: body.url: …") goes on it; anything else (the target's answer) stays whole. */
function refusal(error: Error): { fields: Partial<Record<Field, string>>; other: string | null } {
  const fields: Partial<Record<Field, string>> = {}
  const rest: string[] = []
  for (const part of error.message.replace(/^Invalid request: /, '').split('; ')) {
    const m = /^(?:body|params)\.(name|url|token): (.+)$/s.exec(part)
    if (m?.[1] && m[2]) fields[m[1] as Field] = m[2]
    else rest.push(part)
  }
  return { fields, other: rest.join('; ') || null }
}

/**
 * The nodes this one distributes to (administrators). Adding one asks it at once to trust this
 * node's keys, so a wrong token or address is refused with the target's own answer.
 */
export function TargetsPanel() {
  const targets = useTargets()
  const save = useSaveTarget()
  const remove = useDeleteTarget()
  const [form, setForm] = useState<Record<Field, string>>({ name: '', url: '', token: '' })
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [deleting, setDeleting] = useState<string | null>(null)
  const refused = save.error ? refusal(save.error) : null
  const set = (f: Field, v: string) => {
    setForm((s) => ({ ...s, [f]: v }))
    setErrors((e) => ({ ...e, [f]: undefined }))
    if (refused?.fields[f]) save.reset()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const local: Partial<Record<Field, string>> = {}
    if (!form.name.trim()) local.name = Messages.fieldMandatory
    else if (!BUNDLE_NAME.test(form.name.trim())) local.name = ReleaseBundleMessages.bundleNameInvalid
    if (!form.url.trim()) local.url = Messages.fieldMandatory
    if (!form.token) local.token = Messages.fieldMandatory
    setErrors(local)
    if (Object.keys(local).length > 0) return
    const name = form.name.trim()
    save.mutate(
      { name, url: form.url.trim(), token: form.token },
      {
        onSuccess: () => {
          notify({ color: 'green', message: format(ReleaseBundleMessages.bundleTargetSaved, { name }) })
          setForm({ name: '', url: '', token: '' })
          save.reset()
        },
      },
    )
  }
  const rows = targets.data ?? []
  return (
    <Card withBorder padding="md" component="section" aria-label="Targets">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Targets
        </Title>
        <Text size="sm" c="dimmed">
          Other Trove nodes this one distributes bundles to, each with a token of one of its administrators.
        </Text>
        {targets.isPending ? (
          <Loader size="sm" aria-label="Loading targets" />
        ) : targets.error ? (
          <Alert color="red" variant="light" role="alert">
            {targets.error.message || Messages.somethingWentWrong}
          </Alert>
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No target yet.
          </Text>
        ) : (
          <Table aria-label="Targets" verticalSpacing={6}>
            <Table.Tbody>
              {rows.map((t) => (
                <Table.Tr key={t.name}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {t.name}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {t.url}
                    </Text>
                    <Text size="xs" c="dimmed">
                      Added {when(t.createdAt)}
                      {t.createdBy ? ` by ${t.createdBy}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Remove target ${t.name}`}
                      loading={remove.isPending && remove.variables === t.name}
                      onClick={() => setDeleting(t.name)}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <form onSubmit={submit} noValidate aria-label="Add a target">
          <Stack gap="xs">
            <Group grow align="flex-start" gap="xs">
              <TextInput
                label="Name"
                size="xs"
                value={form.name}
                error={errors.name ?? refused?.fields.name}
                onChange={(e) => set('name', e.currentTarget.value)}
              />
              <TextInput
                label="URL"
                size="xs"
                placeholder="https://edge.example.com"
                value={form.url}
                error={errors.url ?? refused?.fields.url}
                onChange={(e) => set('url', e.currentTarget.value)}
              />
            </Group>
            <PasswordInput
              label="Administrator token of the target"
              size="xs"
              value={form.token}
              error={errors.token ?? refused?.fields.token}
              onChange={(e) => set('token', e.currentTarget.value)}
            />
            {save.error && (refused?.other || Object.keys(refused?.fields ?? {}).length === 0) && (
              <Alert color="red" variant="light" role="alert" p="xs">
                {refused?.other || Messages.somethingWentWrong}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" size="xs" loading={save.isPending}>
                Add target
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
      <ConfirmDialog
        title="Remove target"
        confirmLabel="Remove"
        message={deleting && format(ReleaseBundleMessages.bundleTargetDeleteConfirm, { name: deleting })}
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return
          const name = deleting
          remove.mutate(name, {
            onSuccess: () => notify({ color: 'green', message: format(ReleaseBundleMessages.bundleTargetDeleted, { name }) }),
            onError: (error) => notify({ color: 'red', message: error.message || Messages.somethingWentWrong }),
            onSettled: () => setDeleting(null),
          })
        }}
      />
    </Card>
  )
}
