import { Anchor, Code, Group, Loader, Stack, Table, Tabs, Text } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import type { ArtifactRef, PackageNode, VersionNode } from '@trove/contracts/packages'
import { useEffect, useState } from 'react'
import { ArtifactBuildsTable } from '../../../ui/ArtifactBuildsTable'
import { VulnerabilityBadges } from '../../../ui/VulnerabilityBadges'
import {
  artifactBuildsQuery,
  dependenciesQuery,
  dockerLayersQuery,
  downloadUrl,
  packageQuery,
  propertiesQuery,
  versionQuery,
} from '../api/packagesApi'
import {
  defaultTab,
  digestOf,
  displayFileName,
  formatSize,
  leadFileOf,
  listsDependencies,
  tabLabel,
  type VersionTab,
  versionTabs,
} from '../packageRules'
import { loadPackage, loadVersion, usePackagesState } from '../packagesState'
import { Fact, PackageSummary } from './PackageSummary'
import { SecurityTab } from './SecurityTab'
import { VersionReadme } from './VersionReadme'

export interface VersionDetailsProps {
  packageId: string
  /** Extra package selections the licence and features allow. */
  packageFields: string
  versionName: string
  /** The scanner runs on this instance. */
  scannerPresent: boolean
  /** The licence includes security data. */
  securityLicense: boolean
  /** The legacy version view (three tabs). */
  legacy: boolean
  onOpenPackage: (packageId: string) => void
  onNotFound: () => void
}

/** The version level: the version's figures and its tabs. */
export function VersionDetails(props: VersionDetailsProps) {
  const { packageId, packageFields, versionName, onNotFound } = props
  const queryClient = useQueryClient()
  const state = usePackagesState()
  useEffect(() => {
    let live = true
    void Promise.all([loadPackage(queryClient, packageId, packageFields), loadVersion(queryClient, packageId, versionName)]).then(
      ([pkg, version]) => {
        if (live && (!pkg || !version)) onNotFound()
      },
    )
    return () => {
      live = false
    }
  }, [queryClient, packageId, packageFields, versionName, onNotFound])
  const pkg = useQuery({ ...packageQuery(packageId, packageFields), enabled: false }).data
  const version = useQuery({ ...versionQuery(packageId, versionName), enabled: false }).data
  if (!pkg || !version)
    return (
      <Group justify="center">
        {(state.versionFetching || state.packageInfoFetching) && <Loader aria-label="Loading version" />}
      </Group>
    )
  return <VersionView {...props} pkg={pkg} version={version} />
}

function VersionView({
  packageId,
  pkg,
  version,
  scannerPresent,
  securityLicense,
  legacy,
  onOpenPackage,
}: VersionDetailsProps & { pkg: PackageNode; version: VersionNode }) {
  const type = pkg.packageType ?? ''
  const lead = leadFileOf(version)
  const tabs = versionTabs(type, legacy)
  const first = defaultTab(lead?.path, type)
  const [tab, setTab] = useState<VersionTab>(tabs.includes(first) ? first : 'readme')
  const digest = digestOf(version.files)
  const versionId = version.id ?? ''
  return (
    <Stack gap="sm">
      <Anchor
        component="button"
        type="button"
        size="sm"
        style={{ alignSelf: 'flex-start' }}
        onClick={() => pkg.id && onOpenPackage(pkg.id)}
      >
        ← {pkg.name}
      </Anchor>
      <PackageSummary pkg={pkg} version={version.name} repoKey={lead?.repoKey ?? version.repos?.[0]?.name}>
        <Group gap="lg">
          <Fact label="Created" value={version.created ? new Date(version.created).toLocaleString() : '—'} />
          <Fact label="Size" value={formatSize(version.size)} />
          <Fact label="Downloads" value={String(version.stats?.downloadCount ?? 0)} />
          <Fact label="Repositories" value={(version.repos ?? []).map((r) => r.name).join(', ') || '—'} />
          {version.licenses && version.licenses.length > 0 && (
            <Fact label="Licenses" value={version.licenses.map((l) => l.name).join(', ')} />
          )}
        </Group>
        {digest && (
          <Group gap="xs">
            <Text size="sm">Digest:</Text>
            <Code data-testid="digest">sha256:{digest}</Code>
          </Group>
        )}
        <VulnerabilityBadges value={version.vulnerabilities} />
      </PackageSummary>
      <Tabs value={tab} onChange={(v) => v && setTab(v as VersionTab)} keepMounted={false}>
        <Tabs.List>
          {tabs.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {tabLabel(t, scannerPresent)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="readme" pt="md">
          <VersionReadme versionId={versionId} />
          {listsDependencies(type) && <DependenciesSection versionId={versionId} />}
        </Tabs.Panel>
        <Tabs.Panel value="builds" pt="md">
          {lead ? <BuildsTab lead={lead} /> : <Text c="dimmed">{Messages.noBuilds}</Text>}
        </Tabs.Panel>
        <Tabs.Panel value="location" pt="md">
          <LocationTab version={version} versionId={versionId} type={type} />
        </Tabs.Panel>
        <Tabs.Panel value="xrayData" pt="md">
          <SecurityTab
            packageId={packageId}
            version={version}
            scannerPresent={scannerPresent}
            securityLicense={securityLicense}
          />
        </Tabs.Panel>
        <Tabs.Panel value="releases" pt="md">
          <Text c="dimmed">{Messages.noReleases}</Text>
        </Tabs.Panel>
        <Tabs.Panel value="dockerLayers" pt="md">
          {lead ? <DockerLayersTab lead={lead} /> : <Text c="dimmed">{Messages.noDockerLayers}</Text>}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}

function DependenciesSection({ versionId }: { versionId: string }) {
  const deps = useQuery(dependenciesQuery(versionId))
  return (
    <Stack gap="xs" mt="lg">
      <Text fw={600}>Dependencies</Text>
      {deps.isPending ? (
        <Loader size="sm" />
      ) : (deps.data ?? []).length === 0 ? (
        <Text c="dimmed">{Messages.noDependencies}</Text>
      ) : (
        <Table aria-label="Dependencies" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Range</Table.Th>
              <Table.Th>Scope</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deps.data?.map((d) => (
              <Table.Tr key={`${d.scope}:${d.name}`}>
                <Table.Td>{d.name}</Table.Td>
                <Table.Td>{d.range}</Table.Td>
                <Table.Td>{d.scope}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  )
}

function BuildsTab({ lead }: { lead: ArtifactRef }) {
  const builds = useQuery(artifactBuildsQuery(lead))
  if (builds.isPending) return <Loader size="sm" aria-label="Loading builds" />
  return <ArtifactBuildsTable builds={builds.data ?? { producedBy: [], usedBy: [] }} empty={Messages.noBuilds} />
}

function LocationTab({ version, versionId, type }: { version: VersionNode; versionId: string; type: string }) {
  const properties = useQuery(propertiesQuery(versionId))
  const files = version.files ?? []
  return (
    <Stack gap="lg">
      <Table aria-label="Repositories">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Repository</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Lead file</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(version.repos ?? []).map((r) => (
            <Table.Tr key={r.name}>
              <Table.Td>{r.name}</Table.Td>
              <Table.Td>{r.type}</Table.Td>
              <Table.Td>{r.leadFilePath ? displayFileName(r.leadFilePath, type) : '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Stack gap="xs">
        <Text fw={600}>Files</Text>
        {files.length === 0 ? (
          <Text c="dimmed">{Messages.noFiles}</Text>
        ) : (
          <Table aria-label="Files" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>SHA-256</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.map((f) => {
                const repo = version.repos?.[0]?.name
                const name = displayFileName(f.name ?? '', type)
                return (
                  <Table.Tr key={`${f.path ?? f.name}`}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>
                      {repo && f.path ? <Anchor href={downloadUrl({ repoKey: repo, path: f.path })}>{name}</Anchor> : name}
                      {f.lead ? ' (lead)' : ''}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatSize(f.size)}</Table.Td>
                    <Table.Td>{f.mimeType}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>
                      <Code>{f.sha256}</Code>
                    </Table.Td>
                  </Table.Tr>
                )
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Stack gap="xs">
        <Text fw={600}>Properties</Text>
        {properties.isPending ? (
          <Loader size="sm" />
        ) : (properties.data ?? []).length === 0 ? (
          <Text c="dimmed">{Messages.noProperties}</Text>
        ) : (
          <Table aria-label="Properties" striped>
            <Table.Tbody>
              {properties.data?.map((p) => (
                <Table.Tr key={p.name}>
                  <Table.Td>{p.name}</Table.Td>
                  <Table.Td>{p.values.join(', ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Stack>
  )
}

function DockerLayersTab({ lead }: { lead: ArtifactRef }) {
  const layers = useQuery(dockerLayersQuery(lead))
  if (layers.isPending) return <Loader size="sm" aria-label="Loading layers" />
  if (!layers.data || layers.data.layers.length === 0) return <Text c="dimmed">{Messages.noDockerLayers}</Text>
  const { tagInfo } = layers.data
  return (
    <Stack gap="sm">
      <Group gap="lg">
        <Fact label="Tag" value={tagInfo.title} />
        <Fact label="Digest" value={tagInfo.digest} />
        <Fact label="Total size" value={formatSize(tagInfo.totalSize)} />
        {tagInfo.os && <Fact label="OS / Arch" value={`${tagInfo.os}/${tagInfo.architecture ?? ''}`} />}
      </Group>
      <Table aria-label="Docker layers" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>Digest</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Command</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {layers.data.layers.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: layers are a fixed, ordered history (empty steps share a null digest)
            <Table.Tr key={i}>
              <Table.Td>{i + 1}</Table.Td>
              <Table.Td>{l.shortId ?? '—'}</Table.Td>
              <Table.Td>{formatSize(l.size)}</Table.Td>
              <Table.Td>
                <Code>{l.command ?? ''}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {layers.data.referrers.length > 0 && (
        <Table aria-label="Referrers" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Referrer</Table.Th>
              <Table.Th>Digest</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {layers.data.referrers.map((r) => (
              <Table.Tr key={r.digest}>
                <Table.Td>{r.artifactType ?? r.mediaType}</Table.Td>
                <Table.Td>
                  <Code>{r.digest.replace(/^sha256:/, '').slice(0, 12)}</Code>
                </Table.Td>
                <Table.Td>{formatSize(r.size)}</Table.Td>
                <Table.Td>{r.created ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  )
}
