import {
  Anchor,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  NumberInput,
  Radio,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { Messages } from '@trove/contracts/messages'
import type { ReverseProxy, WebServerType } from '@trove/contracts/shell'
import { type FormEvent, useEffect, useState } from 'react'
import { isNotFound } from '../../lib/api'
import { PageHeader } from '../../ui/PageHeader'
import { SaveFooter } from '../../ui/SaveFooter'
import {
  useDeleteReverseProxy,
  useProxyConfig,
  useReverseProxies,
  useReverseProxy,
  useSaveReverseProxy,
} from './api/reverseProxies'

const BREADCRUMBS = ['Platform Configurations', 'Reverse Proxy']
const METHOD_LABEL: Record<ReverseProxy['dockerReverseProxyMethod'], string> = {
  SUBDOMAIN: 'Sub-domain (repo.server)',
  REPOPATHPREFIX: 'Repository path (server/repo/image)',
  PORTPERREPO: 'Port per repository',
}
const WEB_SERVER_LABEL: Record<WebServerType, string> = { nginx: 'nginx', haproxy: 'HAProxy' }
/** The file an admin saves the configuration as: a conf.d file for nginx, one to append to haproxy.cfg for haproxy. */
const configFileName = (key: string, webServer: WebServerType) => (webServer === 'haproxy' ? `${key}.cfg` : `${key}.conf`)

/** proxies/configuration: the reverse proxies (the list is the default child). */
export function ReverseProxyListPage() {
  const proxies = useReverseProxies()
  const remove = useDeleteReverseProxy()
  return (
    <>
      <PageHeader title="Reverse Proxy" breadcrumbs={BREADCRUMBS}>
        <Text c="dimmed" size="sm">
          Put nginx or HAProxy in front of Trove: describe the proxy, then copy the configuration it generates.
        </Text>
      </PageHeader>
      <Group justify="flex-end" mb="sm">
        <Button component={Link} to="/admin/proxies/configuration/new">
          New reverse proxy
        </Button>
      </Group>
      {proxies.isPending ? (
        <Skeleton h={120} radius="md" />
      ) : proxies.data?.proxies.length === 0 ? (
        <Card withBorder radius="md" padding="xl">
          <Text c="dimmed" ta="center">
            No reverse proxy is configured.
          </Text>
        </Card>
      ) : (
        <Card withBorder radius="md" padding={0}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Server name</Table.Th>
                <Table.Th>Web server</Table.Th>
                <Table.Th>Docker access</Table.Th>
                <Table.Th>Ports</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {proxies.data?.proxies.map((p) => (
                <Table.Tr key={p.key}>
                  <Table.Td>
                    <Anchor component={Link} to={`/admin/proxies/configuration/edit/${encodeURIComponent(p.key)}`}>
                      {p.key}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{p.serverName}</Table.Td>
                  <Table.Td>{WEB_SERVER_LABEL[p.webServerType ?? 'nginx']}</Table.Td>
                  <Table.Td>{METHOD_LABEL[p.dockerReverseProxyMethod]}</Table.Td>
                  <Table.Td>
                    {[p.useHttp && `HTTP ${p.httpPort}`, p.useHttps && `HTTPS ${p.httpsPort}`].filter(Boolean).join(', ')}
                  </Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => remove.mutate(p.key)}
                      aria-label={`Delete ${p.key}`}
                    >
                      Delete
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
    </>
  )
}

const EMPTY: ReverseProxy = {
  key: '',
  serverName: '',
  dockerReverseProxyMethod: 'REPOPATHPREFIX',
  reverseProxyRepositories: [],
  useHttps: false,
  useHttp: true,
  httpsPort: 443,
  httpPort: 80,
  sslCertificate: '',
  sslKey: '',
  upstreamUrl: '',
  webServerType: 'nginx',
}

/** proxies/configuration/new and edit/:proxyName: the fields of operations §3, and the nginx or haproxy file. */
export function ReverseProxyFormPage({
  proxyName,
  onSaved,
  onNotFound,
}: {
  proxyName?: string
  onSaved: (name: string) => void
  /** The proxy to edit does not exist (never an empty "Edit" form of it). */
  onNotFound?: () => void
}) {
  const existing = useReverseProxy(proxyName)
  const notFound = isNotFound(existing.error)
  useEffect(() => {
    if (notFound) onNotFound?.()
  }, [notFound, onNotFound])
  const save = useSaveReverseProxy()
  // The file shown is the saved proxy's: a web server picked but not saved yet has none to show.
  const savedWebServer = existing.data?.webServerType ?? 'nginx'
  const generated = useProxyConfig(proxyName, savedWebServer)
  const [p, setP] = useState<ReverseProxy>(EMPTY)
  const webServer = p.webServerType ?? 'nginx'
  const [repos, setRepos] = useState('')
  const [nodes, setNodes] = useState('')
  const [touched, setTouched] = useState(false)
  useEffect(() => {
    if (existing.data) {
      setP(existing.data)
      setRepos(
        existing.data.reverseProxyRepositories.map((r) => (r.serverPort ? `${r.repoKey}:${r.serverPort}` : r.repoKey)).join(', '),
      )
      setNodes((existing.data.clusterNodeUrls ?? []).join(', '))
    }
  }, [existing.data])
  const set = (patch: Partial<ReverseProxy>) => setP((v) => ({ ...v, ...patch }))
  const nameError =
    touched && (!p.key ? Messages.fieldMandatory : !/^[A-Za-z0-9._-]+$/.test(p.key) ? Messages.invalidName : undefined)
  const serverError = touched && !p.serverName.trim() ? Messages.fieldMandatory : undefined
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!p.key || !/^[A-Za-z0-9._-]+$/.test(p.key) || !p.serverName.trim()) return
    const reverseProxyRepositories = repos
      .split(/[,\s]+/)
      .filter(Boolean)
      .map((entry) => {
        const [repoKey = '', port] = entry.split(':')
        return port ? { repoKey, serverPort: Number(port) } : { repoKey }
      })
    const clusterNodeUrls = nodes.split(/[,\s]+/).filter(Boolean)
    save.mutate(
      { original: proxyName ?? null, proxy: { ...p, reverseProxyRepositories, clusterNodeUrls } },
      { onSuccess: (saved) => onSaved(saved.key) },
    )
  }
  if (proxyName && (existing.isPending || notFound)) return <Skeleton h={400} radius="md" />
  return (
    <>
      <PageHeader
        title={proxyName ? `Edit ${proxyName}` : 'New reverse proxy'}
        breadcrumbs={[...BREADCRUMBS, proxyName ?? 'New']}
      />
      <Stack maw={760} gap="lg">
        <Card withBorder radius="md" padding="lg" component="form" onSubmit={submit} aria-label="Reverse proxy" noValidate>
          <Stack>
            <Group grow align="flex-start">
              <TextInput
                label="Name"
                required
                value={p.key}
                onChange={(e) => set({ key: e.currentTarget.value })}
                error={nameError}
              />
              <TextInput
                label="Server name"
                description="The host name users type (e.g. repo.example.org)"
                required
                value={p.serverName}
                onChange={(e) => set({ serverName: e.currentTarget.value })}
                error={serverError}
              />
            </Group>
            <Radio.Group
              label="Web server"
              description="The one the configuration is written for"
              value={webServer}
              onChange={(v) => set({ webServerType: v as WebServerType })}
            >
              <Group mt={6}>
                {Object.entries(WEB_SERVER_LABEL).map(([value, label]) => (
                  <Radio key={value} value={value} label={label} />
                ))}
              </Group>
            </Radio.Group>
            <TextInput
              label="Trove's internal URL"
              description="Where the proxy reaches Trove; empty: this server on 127.0.0.1"
              placeholder="http://127.0.0.1:8080"
              value={p.upstreamUrl}
              onChange={(e) => set({ upstreamUrl: e.currentTarget.value })}
            />
            <TextInput
              label="Other cluster nodes"
              description="Each node's own URL, separated by commas: the proxy spreads requests over them and moves one a node fails to answer to the next"
              placeholder="http://10.0.0.12:8080"
              value={nodes}
              onChange={(e) => setNodes(e.currentTarget.value)}
            />
            <Radio.Group
              label="Docker access method"
              value={p.dockerReverseProxyMethod}
              onChange={(v) => set({ dockerReverseProxyMethod: v as ReverseProxy['dockerReverseProxyMethod'] })}
            >
              <Group mt={6}>
                {Object.entries(METHOD_LABEL).map(([value, label]) => (
                  <Radio key={value} value={value} label={label} />
                ))}
              </Group>
            </Radio.Group>
            <TextInput
              label="Repositories"
              description={
                p.dockerReverseProxyMethod === 'PORTPERREPO'
                  ? 'repo:port, separated by commas'
                  : 'Docker repositories this proxy serves, separated by commas'
              }
              value={repos}
              onChange={(e) => setRepos(e.currentTarget.value)}
            />
            <Group grow align="flex-end">
              <Checkbox label="HTTP" checked={p.useHttp} onChange={(e) => set({ useHttp: e.currentTarget.checked })} />
              <NumberInput
                label="HTTP port"
                value={p.httpPort}
                min={1}
                max={65535}
                disabled={!p.useHttp}
                onChange={(v) => set({ httpPort: Number(v) || 80 })}
              />
            </Group>
            <Group grow align="flex-end">
              <Checkbox label="HTTPS" checked={p.useHttps} onChange={(e) => set({ useHttps: e.currentTarget.checked })} />
              <NumberInput
                label="HTTPS port"
                value={p.httpsPort}
                min={1}
                max={65535}
                disabled={!p.useHttps}
                onChange={(v) => set({ httpsPort: Number(v) || 443 })}
              />
            </Group>
            {p.useHttps && webServer === 'haproxy' && (
              <TextInput
                label="Certificate file"
                description="One PEM file with the certificate, its chain and its key"
                placeholder="/etc/haproxy/certs/trove.pem"
                value={p.sslCertificate}
                onChange={(e) => set({ sslCertificate: e.currentTarget.value })}
              />
            )}
            {p.useHttps && webServer === 'nginx' && (
              <Group grow>
                <TextInput
                  label="Certificate file"
                  placeholder="/etc/nginx/ssl/trove.crt"
                  value={p.sslCertificate}
                  onChange={(e) => set({ sslCertificate: e.currentTarget.value })}
                />
                <TextInput
                  label="Key file"
                  placeholder="/etc/nginx/ssl/trove.key"
                  value={p.sslKey}
                  onChange={(e) => set({ sslKey: e.currentTarget.value })}
                />
              </Group>
            )}
            <SaveFooter error={save.error} pending={save.isPending}>
              <Button variant="default" component={Link} to="/admin/proxies/configuration">
                Cancel
              </Button>
            </SaveFooter>
          </Stack>
        </Card>
        {proxyName && (
          <Card
            withBorder
            radius="md"
            padding="lg"
            component="section"
            aria-label={`${WEB_SERVER_LABEL[savedWebServer]} configuration`}
          >
            <Group justify="space-between" mb="sm">
              <Title order={2} size="h4">
                {WEB_SERVER_LABEL[savedWebServer]} configuration
              </Title>
              {generated.data && (
                <Group gap="xs">
                  <CopyButton value={generated.data.config}>
                    {({ copied, copy }) => (
                      <Button size="xs" variant={copied ? 'light' : 'default'} onClick={copy}>
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    )}
                  </CopyButton>
                  <Button
                    size="xs"
                    variant="default"
                    component="a"
                    href={`data:text/plain;charset=utf-8,${encodeURIComponent(generated.data.config)}`}
                    download={configFileName(proxyName, savedWebServer)}
                  >
                    Download
                  </Button>
                </Group>
              )}
            </Group>
            {generated.isPending ? (
              <Skeleton h={200} />
            ) : (
              <Code block data-testid={`${savedWebServer}-config`}>
                {generated.data?.config}
              </Code>
            )}
          </Card>
        )}
      </Stack>
    </>
  )
}
