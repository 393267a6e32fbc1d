import { Alert, Badge, Button, Card, Group, Pagination, Table, Text, TextInput } from '@mantine/core'
import type { ContactRequestView } from '@trove/contracts/contact'
import { type ContactDeliveryStatus, HELP_OPTION_LABELS, type HelpOption } from '@trove/contracts/contactConstants'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useEffect, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { useContactRequests, useContactSettings, useSaveContactSettings } from './api/contact'

const STATUS: Record<ContactDeliveryStatus, { label: string; color: string }> = {
  sent: { label: 'Sent', color: 'green' },
  pending: { label: 'Sending', color: 'blue' },
  failed: { label: 'Failed', color: 'red' },
  unsent: { label: 'Not sent', color: 'orange' },
}

const helpLabel = (option: string) => HELP_OPTION_LABELS[option as HelpOption] ?? option

/** Where requests are mailed: an address, or empty to keep them here only. */
function RecipientForm() {
  const settings = useContactSettings()
  const save = useSaveContactSettings()
  const [recipient, setRecipient] = useState('')
  useEffect(() => {
    if (settings.data) setRecipient(settings.data.recipient)
  }, [settings.data])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate({ recipient: recipient.trim() })
  }
  return (
    <Card withBorder radius="md" mb="lg" component="form" onSubmit={submit} noValidate aria-label="Contact request mail">
      <Group align="flex-end">
        <TextInput
          label="Mail contact requests to"
          description="Sent through the mail server of General Settings; leave empty to keep them here only"
          type="email"
          w={420}
          value={recipient}
          onChange={(e) => setRecipient(e.currentTarget.value)}
          error={save.error?.message}
        />
        <Button type="submit" loading={save.isPending} disabled={settings.isPending}>
          Save
        </Button>
      </Group>
      {save.isSuccess && (
        <Text size="sm" c="green" mt="xs" role="status">
          Saved
        </Text>
      )}
    </Card>
  )
}

function Delivery({ request }: { request: ContactRequestView }) {
  const status = STATUS[request.delivery.status]
  return (
    <>
      <Badge color={status.color} variant="dot" style={{ overflow: 'visible' }}>
        {status.label}
      </Badge>
      {request.delivery.recipient && (
        <Text size="xs" c="dimmed">
          to {request.delivery.recipient}
        </Text>
      )}
      {request.delivery.error && (
        <Text size="xs" c="red.9">
          {request.delivery.error}
        </Text>
      )}
    </>
  )
}

/** Admin → Contact Requests: what the contact-us dialog sent, newest first, with what became of each mail. */
export function ContactRequestsPage() {
  const [page, setPage] = useState(1)
  const requests = useContactRequests(page)
  const data = requests.data
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1
  return (
    <>
      <PageHeader title="Contact Requests" breadcrumbs={['Administration', 'Platform Configurations']} />
      <RecipientForm />
      {requests.error && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {requests.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      <Table striped withTableBorder aria-label="Contact requests">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>Help wanted</Table.Th>
            <Table.Th>Comment</Table.Th>
            <Table.Th>Mail</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data?.items.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{new Date(r.createdAt).toLocaleString()}</Table.Td>
              <Table.Td>
                <Text size="sm">
                  {r.firstName} {r.lastName}, {r.country}
                </Text>
                <Text size="xs" c="dimmed">
                  {r.email}
                  {r.submittedBy ? ` (signed in as ${r.submittedBy})` : ''}
                </Text>
              </Table.Td>
              <Table.Td>{helpLabel(r.helpOption)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{r.optionalComment}</Table.Td>
              <Table.Td>
                <Delivery request={r} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data?.items.length === 0 && (
        <Text c="dimmed" mt="sm">
          No contact requests yet
        </Text>
      )}
      {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} />}
    </>
  )
}
