import { Alert, Anchor, Button, Card, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import type { ChecksumMatch } from '@trove/contracts/distribution'
import { Messages } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { type FormEvent, useState } from 'react'
import { LOOKUP_ROWS, useChecksumLookup } from '../api/checksumLookup'
import { OriginBadge } from './Badges'

/** A sha256, sha1 or md5 in hex: the server tells them apart by length. */
export const isChecksum = (text: string) => /^(?:[a-f0-9]{32}|[a-f0-9]{40}|[a-f0-9]{64})$/i.test(text)

/** "Find bundles by checksum": the bundles (made here or received) holding a file with that checksum. */
export function ChecksumLookup({ onOpen }: { onOpen: (match: ChecksumMatch) => void }) {
  const [text, setText] = useState('')
  const [asked, setAsked] = useState<string | null>(null)
  const [invalid, setInvalid] = useState(false)
  const lookup = useChecksumLookup(asked)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const sum = text.trim().toLowerCase()
    setInvalid(!isChecksum(sum))
    if (isChecksum(sum)) setAsked(sum)
  }
  const matches = lookup.data ?? []
  return (
    <Card withBorder padding="md" component="section" aria-label="Find bundles by checksum">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Find bundles by checksum
        </Title>
        <form onSubmit={submit} noValidate>
          <Group align="flex-start" gap="xs" wrap="nowrap">
            <TextInput
              aria-label="Checksum"
              placeholder="sha256, sha1 or md5"
              ff="monospace"
              size="sm"
              style={{ flex: 1 }}
              value={text}
              error={invalid ? ReleaseBundleMessages.bundleChecksumInvalid : undefined}
              onChange={(e) => {
                setText(e.currentTarget.value)
                setInvalid(false)
              }}
            />
            <Button type="submit" size="sm" variant="light" loading={lookup.isFetching}>
              Find
            </Button>
          </Group>
        </form>
        {asked === null ? null : lookup.isPending ? (
          <Loader size="sm" aria-label="Looking up" />
        ) : lookup.error ? (
          <Alert color="red" variant="light" role="alert">
            {lookup.error.message || Messages.somethingWentWrong}
          </Alert>
        ) : matches.length === 0 ? (
          <Text size="sm" c="dimmed">
            {ReleaseBundleMessages.bundleChecksumNoMatch}
          </Text>
        ) : (
          <>
            <Table aria-label="Bundles with this checksum" verticalSpacing={6}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Bundle</Table.Th>
                  <Table.Th>Origin</Table.Th>
                  <Table.Th>File</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {matches.map((m) => (
                  <Table.Tr key={`${m.origin}\u0000${m.name}\u0000${m.version}\u0000${m.repoKey}/${m.path}`}>
                    <Table.Td>
                      <Anchor
                        component="button"
                        type="button"
                        size="sm"
                        fw={600}
                        onClick={() => onOpen(m)}
                        aria-label={`Open ${m.name} ${m.version}`}
                      >
                        {m.name} {m.version}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <OriginBadge origin={m.origin} />
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Text size="sm">
                        {m.repoKey}/{m.path}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {matches.length >= LOOKUP_ROWS && (
              <Text size="xs" c="dimmed">
                The first {LOOKUP_ROWS} matches, newest first.
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  )
}
