import { Alert, Button, Card, Group, Select, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { type FormEvent, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { type LicenseInput, useChangeLicense, useLicense } from './api/license'

const TYPES: LicenseInput['type'][] = ['OSS', 'JCR', 'CE', 'PRO', 'ENTERPRISE', 'ENTERPRISE_PLUS', 'EDGE', 'TRIAL']
const date = (ms: number | null) => (ms === null ? 'Never' : new Date(ms).toLocaleDateString(undefined, { dateStyle: 'long' }))

/** Admin › Licenses (admin.licenses.licenses): the installed licence, install another, remove it. */
export function LicensesPage() {
  const license = useLicense()
  const { install, remove } = useChangeLicense()
  const [type, setType] = useState<LicenseInput['type']>('ENTERPRISE_PLUS')
  const [licensedTo, setLicensedTo] = useState('')
  const [expires, setExpires] = useState('')
  const [touched, setTouched] = useState(false)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!licensedTo.trim()) return
    install.mutate({
      type,
      licensedTo: licensedTo.trim(),
      validThrough: expires ? new Date(`${expires}T23:59:59`).getTime() : null,
    })
  }
  const l = license.data
  return (
    <>
      <PageHeader title="Licenses" breadcrumbs={['Platform Configurations', 'Licenses']} />
      <Stack maw={720} gap="lg">
        {license.isPending ? (
          <Skeleton h={150} radius="md" />
        ) : (
          <Card withBorder radius="md" padding="lg" component="section" aria-label="Installed licence">
            <Title order={2} size="h4" mb="sm">
              Installed licence
            </Title>
            {l?.type === 'N/A' && (
              <Alert color="orange" variant="light" mb="sm">
                No licence is installed: only administrators can use Trove until one is.
              </Alert>
            )}
            <Table>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={160}>Type</Table.Th>
                  <Table.Td data-testid="license-type">{l?.type ?? 'N/A'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Licensed to</Table.Th>
                  <Table.Td>{l?.licensedTo ?? 'N/A'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Valid through</Table.Th>
                  <Table.Td>{l && l.type !== 'N/A' ? date(l.validThrough) : 'N/A'}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            {l && l.type !== 'N/A' && (
              <Group justify="flex-end" mt="sm">
                <Button variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                  Remove licence
                </Button>
              </Group>
            )}
          </Card>
        )}
        <Card withBorder radius="md" padding="lg" component="form" onSubmit={submit} aria-label="Install a licence">
          <Stack>
            <Title order={2} size="h4">
              Install a licence
            </Title>
            <Select
              label="Type"
              data={TYPES}
              value={type}
              onChange={(v) => v && setType(v as LicenseInput['type'])}
              allowDeselect={false}
            />
            <TextInput
              label="Licensed to"
              value={licensedTo}
              onChange={(e) => setLicensedTo(e.currentTarget.value)}
              error={touched && !licensedTo.trim() ? Messages.fieldMandatory : undefined}
            />
            <TextInput
              label="Valid through"
              description="Leave empty for a licence that does not expire"
              type="date"
              value={expires}
              onChange={(e) => setExpires(e.currentTarget.value)}
            />
            {install.error && (
              <Alert color="red" role="alert">
                {install.error.message || Messages.somethingWentWrong}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={install.isPending}>
                Install
              </Button>
            </Group>
          </Stack>
        </Card>
        <Text size="xs" c="dimmed">
          OSS, the licence Trove starts with, opens everything this instance runs. The other types show the console as their
          edition would: the security screens need Enterprise, Enterprise+ or Trial; the source tab of release bundles Enterprise+
          or Trial.
        </Text>
      </Stack>
    </>
  )
}
