import { Button, Checkbox, Group, Modal, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core'
import { BUNDLE_CREATE_PATHS, type CreateBundleRequest, SERVICE_LABELS, type ServiceType } from '@trove/contracts/operations'
import { type FormEvent, useState } from 'react'
import { threadDumpError, toWholeNumber } from './rules/threadDump'

export interface CreateBundleDialogProps {
  opened: boolean
  onClose: () => void
  /** The services running on an Online node that have a create path. */
  services: ServiceType[]
  onCreate: (service: ServiceType, request: CreateBundleRequest) => void
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10)

/** Create support bundle: name, description, what to include, the log date range and the thread dump. */
export function CreateBundleDialog({ opened, onClose, services, onCreate }: CreateBundleDialogProps) {
  const today = new Date()
  const [service, setService] = useState<ServiceType>('repository')
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [configuration, setConfiguration] = useState(true)
  const [system, setSystem] = useState(true)
  const [logs, setLogs] = useState(true)
  const [startDate, setStartDate] = useState(isoDay(new Date(today.getTime() - 24 * 3600 * 1000)))
  const [endDate, setEndDate] = useState(isoDay(today))
  const [count, setCount] = useState('1')
  const [interval, setInterval] = useState('0')
  const [tried, setTried] = useState(false)

  const errors = {
    name: name.trim() ? null : 'Name is required',
    dates: logs && startDate && endDate && startDate > endDate ? 'The start date must not be after the end date' : null,
    count: threadDumpError('count', count),
    interval: threadDumpError('interval', interval),
  }
  const valid = Object.values(errors).every((e) => e === null)
  const available = services.filter((s) => BUNDLE_CREATE_PATHS[s])
  const chosen = available.includes(service) ? service : (available[0] ?? 'repository')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTried(true)
    if (!valid) return
    onCreate(chosen, {
      name: name.trim(),
      description,
      parameters: {
        configuration,
        system,
        logs: {
          include: logs,
          start_date: logs ? startDate || undefined : undefined,
          end_date: logs ? endDate || undefined : undefined,
        },
        // Whole numbers, as the server expects them (spec §4).
        thread_dump: { count: toWholeNumber(count), interval: toWholeNumber(interval) },
      },
    })
    setName('')
    setDescription('')
    setTried(false)
    onClose()
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Create Support Bundle" size="lg">
      <form onSubmit={submit} aria-label="Create support bundle" noValidate>
        <Stack gap="sm">
          <Select
            label="Service"
            data={available.map((s) => ({ value: s, label: SERVICE_LABELS[s] }))}
            value={chosen}
            allowDeselect={false}
            onChange={(v) => v && setService(v as ServiceType)}
          />
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={tried && errors.name}
          />
          <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} rows={2} />
          <Group>
            <Checkbox label="Configuration" checked={configuration} onChange={(e) => setConfiguration(e.currentTarget.checked)} />
            <Checkbox label="System information" checked={system} onChange={(e) => setSystem(e.currentTarget.checked)} />
            <Checkbox label="Logs" checked={logs} onChange={(e) => setLogs(e.currentTarget.checked)} />
          </Group>
          {logs && (
            <SimpleGrid cols={2}>
              <TextInput type="date" label="Logs from" value={startDate} onChange={(e) => setStartDate(e.currentTarget.value)} />
              <TextInput
                type="date"
                label="Logs to"
                value={endDate}
                onChange={(e) => setEndDate(e.currentTarget.value)}
                error={tried && errors.dates}
              />
            </SimpleGrid>
          )}
          <SimpleGrid cols={2}>
            <TextInput
              label="Thread dump count"
              inputMode="numeric"
              value={count}
              onChange={(e) => setCount(e.currentTarget.value)}
              error={tried && errors.count}
            />
            <TextInput
              label="Thread dump interval (ms)"
              inputMode="numeric"
              value={interval}
              onChange={(e) => setInterval(e.currentTarget.value)}
              error={tried && errors.interval}
            />
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Create</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
