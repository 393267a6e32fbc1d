import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Loader,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { NodeInfo } from '@trove/contracts/artifacts'
import { PACKAGE_TYPE_NAMES } from '@trove/contracts/repositoryConstants'
import { type FormEvent, useState } from 'react'
import { ApiError } from '../../../lib/api'
import { formatSize } from '../../../lib/format'
import { ArtifactBuildsTable } from '../../../ui/ArtifactBuildsTable'
import {
  deleteProperty,
  type NodeAddress,
  nodeBuildsQuery,
  nodeInfoQuery,
  nodePropertiesQuery,
  setProperty,
} from '../api/artifactsApi'
import { formatDate } from '../format'

export interface NodeDetailsProps {
  node: NodeAddress
  /** The buttons of the actions the caller may take here. */
  actions: (info: NodeInfo) => React.ReactNode
  packageLink: (packageId: string, version: string | null) => React.ReactNode
}

const errorText = (e: unknown) => (e instanceof ApiError && e.message ? e.message : 'The request failed')

/** The selected node: its General tab, its properties and the builds that made or used it. */
export function NodeDetails({ node, actions, packageLink }: NodeDetailsProps) {
  const info = useQuery(nodeInfoQuery(node))
  if (info.isPending) return <Loader size="sm" aria-label="Loading details" />
  if (info.isError) return <Alert color="red">{errorText(info.error)}</Alert>
  const data = info.data
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Title order={2} size="h3" style={{ wordBreak: 'break-all' }}>
          {data.name}
        </Title>
        <Group gap="xs">{actions(data)}</Group>
      </Group>
      <Tabs defaultValue="general" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="general">General</Tabs.Tab>
          {data.type !== 'repository' && <Tabs.Tab value="properties">Properties</Tabs.Tab>}
          {data.type === 'file' && <Tabs.Tab value="builds">Builds</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="general" pt="sm">
          <General info={data} packageLink={packageLink} />
        </Tabs.Panel>
        <Tabs.Panel value="properties" pt="sm">
          <Properties node={node} info={data} />
        </Tabs.Panel>
        <Tabs.Panel value="builds" pt="sm">
          <Builds node={{ repoKey: data.sourceRepoKey ?? data.repoKey, path: data.path }} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={170} fw={500} c="dimmed">
        {label}
      </Table.Th>
      <Table.Td style={{ wordBreak: 'break-all' }}>{children}</Table.Td>
    </Table.Tr>
  )
}

function Checksum({ label, value }: { label: string; value: string }) {
  return (
    <Field label={label}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {value || 'being computed'}
        </Text>
        {value && (
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : `Copy ${label}`}>
                <ActionIcon variant="subtle" size="sm" aria-label={`Copy ${label}`} onClick={copy}>
                  {copied ? (
                    '✓'
                  ) : (
                    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden>
                      <rect x="5" y="5" width="9" height="9" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
                      <path
                        d="M11 3.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h.5"
                        fill="none"
                        stroke="currentColor"
                        strokeWidth="1.5"
                      />
                    </svg>
                  )}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        )}
      </Group>
    </Field>
  )
}

function General({ info, packageLink }: { info: NodeInfo; packageLink: NodeDetailsProps['packageLink'] }) {
  const kind = info.type === 'repository' ? `${info.rclass} repository` : info.type
  return (
    <Table withRowBorders={false} verticalSpacing={4} aria-label="General">
      <Table.Tbody>
        <Field label="Name">{info.name}</Field>
        <Field label="Type">{kind}</Field>
        <Field label="Repository">
          {info.repoKey}
          {info.sourceRepoKey ? ` (held by ${info.sourceRepoKey})` : ''}
        </Field>
        <Field label="Package type">{PACKAGE_TYPE_NAMES[info.packageType]}</Field>
        {info.path && <Field label="Path">{info.path}</Field>}
        {info.type === 'file' && (
          <>
            <Field label="Size">{formatSize(info.size, '—')}</Field>
            <Field label="Created">{formatDate(info.created)}</Field>
            <Field label="Last modified">{formatDate(info.lastModified)}</Field>
            <Field label="Deployed by">{info.deployedBy ?? '—'}</Field>
            <Field label="Downloads">{info.downloadCount ?? 0}</Field>
            <Field label="Last downloaded">{formatDate(info.lastDownloaded)}</Field>
            <Field label="Media type">{info.mimeType}</Field>
            {info.checksums && (
              <>
                <Checksum label="SHA-256" value={info.checksums.sha256} />
                <Checksum label="SHA-1" value={info.checksums.sha1} />
                <Checksum label="MD5" value={info.checksums.md5} />
              </>
            )}
            {info.packageId && <Field label="Package">{packageLink(info.packageId, info.versionName ?? null)}</Field>}
          </>
        )}
        {info.type === 'repository' && (
          <>
            <Field label="Created">{formatDate(info.created)}</Field>
            <Field label="Last modified">{formatDate(info.lastModified)}</Field>
          </>
        )}
      </Table.Tbody>
    </Table>
  )
}

function Properties({ node, info }: { node: NodeAddress; info: NodeInfo }) {
  const queryClient = useQueryClient()
  const folder = info.type === 'folder'
  const props = useQuery({ ...nodePropertiesQuery(node), enabled: !folder })
  const [name, setName] = useState('')
  const [values, setValues] = useState('')
  const [done, setDone] = useState<string | null>(null)
  const mayChange = info.actions.includes('annotate')
  const invalidate = () => queryClient.invalidateQueries({ queryKey: nodePropertiesQuery(node).queryKey.slice(0, 2) })
  const save = useMutation({
    mutationFn: () =>
      setProperty(
        node,
        name.trim(),
        values
          .split(',')
          .map((v) => v.trim())
          .filter((v, _i, all) => v !== '' || all.length === 1),
        folder,
      ),
    onSuccess: (r) => {
      setDone(`Set on ${r.files} file(s)`)
      setName('')
      setValues('')
      void invalidate()
    },
  })
  const remove = useMutation({
    mutationFn: (prop: string) => deleteProperty(node, prop, folder),
    onSuccess: (r) => {
      setDone(`Removed from ${r.files} file(s)`)
      void invalidate()
    },
  })
  const nameError = name && !/^[^=;,|\s]+$/.test(name) ? 'No spaces or = ; , |' : null
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!name.trim() || nameError) return
    save.mutate()
  }
  return (
    <Stack gap="sm">
      {folder ? (
        <Text size="sm" c="dimmed">
          A folder holds no properties of its own: a property set here is set on every file under it.
        </Text>
      ) : props.isPending ? (
        <Loader size="sm" />
      ) : props.data && props.data.properties.length > 0 ? (
        <Table aria-label="Properties" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Values</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.data.properties.map((p) => (
              <Table.Tr key={p.name}>
                <Table.Td>{p.name}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{p.values.join(', ')}</Table.Td>
                <Table.Td w={90}>
                  {mayChange && (
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => remove.mutate(p.name)}>
                      Delete
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          No properties
        </Text>
      )}
      {mayChange && (
        <form onSubmit={submit} aria-label="Add property">
          <Group align="flex-end" gap="xs">
            <TextInput label="Property name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} />
            <TextInput
              label="Values (comma-separated)"
              value={values}
              onChange={(e) => setValues(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" disabled={!name.trim() || !!nameError} loading={save.isPending}>
              {props.data?.properties.some((p) => p.name === name.trim()) ? 'Update' : 'Add'}
            </Button>
            {folder && (
              <Button
                variant="light"
                color="red"
                disabled={!name.trim() || !!nameError}
                loading={remove.isPending}
                onClick={() => remove.mutate(name.trim())}
              >
                Remove
              </Button>
            )}
          </Group>
        </form>
      )}
      {done && (
        <Text size="sm" c="teal" role="status">
          {done}
        </Text>
      )}
      {(save.isError || remove.isError) && <Alert color="red">{errorText(save.error ?? remove.error)}</Alert>}
    </Stack>
  )
}

function Builds({ node }: { node: NodeAddress }) {
  const builds = useQuery(nodeBuildsQuery(node))
  if (builds.isPending) return <Loader size="sm" />
  if (builds.isError) return <Alert color="red">{errorText(builds.error)}</Alert>
  return <ArtifactBuildsTable builds={builds.data} empty="No build produced or used this file." />
}
