import { Alert, Anchor, Button, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core'
import { BUNDLE_KEYS_PATH } from '@trove/contracts/distribution'
import { format, Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { useState } from 'react'
import { notify } from '../../../lib/notify'
import { useSigningKeys } from '../api/listSigningKeys'
import { useRotateSigningKey } from '../api/rotateSigningKey'
import { when } from '../when'
import { ActiveKeyBadge } from './Badges'
import { ConfirmDialog } from './ConfirmDialog'

/**
 * The keys this node signs bundles with (administrators): the active one signs, the others stay
 * published so that what they signed still verifies. Rotating makes a new active key.
 */
export function SigningKeysPanel() {
  const keys = useSigningKeys()
  const rotate = useRotateSigningKey()
  const [asking, setAsking] = useState(false)
  const rows = keys.data ?? []
  const onRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: (key) => notify({ color: 'green', message: format(ReleaseBundleMessages.bundleKeyRotated, { id: key.id }) }),
      onError: (error) => notify({ color: 'red', message: error.message || Messages.somethingWentWrong }),
      onSettled: () => setAsking(false),
    })
  return (
    <Card withBorder padding="md" component="section" aria-label="Signing keys">
      <Stack gap="sm">
        <Group justify="space-between" align="center">
          <Title order={3} size="h5">
            Signing keys
          </Title>
          <Button size="xs" variant="default" onClick={() => setAsking(true)} loading={rotate.isPending}>
            Rotate
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Bundles are signed with the active key. Targets check signatures against the public keys published at{' '}
          <Anchor href={BUNDLE_KEYS_PATH} target="_blank" rel="noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
            {BUNDLE_KEYS_PATH}
          </Anchor>
          .
        </Text>
        {keys.isPending ? (
          <Loader size="sm" aria-label="Loading signing keys" />
        ) : keys.error ? (
          <Alert color="red" variant="light" role="alert">
            {keys.error.message || Messages.somethingWentWrong}
          </Alert>
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No key yet: one is made when the first bundle is signed.
          </Text>
        ) : (
          <Table aria-label="Signing keys" verticalSpacing={6}>
            <Table.Tbody>
              {rows.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>
                    <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{k.id}</Code>
                    <Text size="xs" c="dimmed" mt={2}>
                      {k.algorithm}, created {when(k.createdAt)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" w={90}>
                    {k.active && <ActiveKeyBadge />}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <ConfirmDialog
        title="Rotate signing key"
        confirmLabel="Rotate"
        destructive={false}
        message={asking ? ReleaseBundleMessages.bundleKeyRotateConfirm : null}
        pending={rotate.isPending}
        onClose={() => setAsking(false)}
        onConfirm={onRotate}
      />
    </Card>
  )
}
