import { Alert, Anchor, Badge, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { format, Messages } from '@trove/contracts/messages'
import { SCANNER_PATHS, type SecuritySearchResult, type SecuritySearchVersion } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import type { MouseEvent } from 'react'
import { apiRequest } from '../../../lib/api'
import { PageHeader } from '../../../ui/PageHeader'
import { SeverityBadge } from '../../../ui/SeverityBadge'
import { isEmptyRequest, type SecuritySearchRequest, securitySearchRequest } from './securitySearchRequest'

const securitySearchQuery = (body: SecuritySearchRequest) => ({
  queryKey: ['scanner', 'search', body],
  queryFn: () => apiRequest<SecuritySearchResult>(SCANNER_PATHS.securitySearch, { method: 'POST', body }),
})

export interface SecuritySearchPageProps {
  /** The top bar's query string (packages §2): text and key:value filters */
  query: string
  /** Where a version opens in the packages browser */
  versionHref: (packageId: string, version: string) => string
  onOpenVersion: (packageId: string, version: string) => void
}

/**
 * The security-compliance search's results (packages §2): the advisories the query names, each
 * with the stored versions it impacts, and the versions carrying the licences asked for.
 */
export function SecuritySearchPage({ query, versionHref, onOpenVersion }: SecuritySearchPageProps) {
  const body = securitySearchRequest(query)
  const result = useQuery(securitySearchQuery(body))
  const title = isEmptyRequest(body)
    ? ScreenMessages.securitySearchInStored
    : format(ScreenMessages.securitySearchResults, { query })
  const link = (v: SecuritySearchVersion) => (
    <Anchor
      href={versionHref(v.package_id, v.version)}
      onClick={(e: MouseEvent) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return
        e.preventDefault()
        onOpenVersion(v.package_id, v.version)
      }}
    >
      {v.package_id.split('://')[1]} {v.version}
    </Anchor>
  )
  return (
    <>
      <PageHeader title={ScreenMessages.securitySearchTitle}>
        <Text c="dimmed">{title}</Text>
      </PageHeader>
      {result.isPending && <Loader size="sm" aria-label="Searching" />}
      {result.isError && <Alert color="red">{result.error.message || Messages.somethingWentWrong}</Alert>}
      {result.isSuccess && result.data.advisories.length === 0 && result.data.licensed.length === 0 && (
        <Text>{ScreenMessages.securitySearchNothing}</Text>
      )}
      {result.isSuccess && (
        <Stack gap="md">
          {result.data.advisories.map((a) => (
            <Card key={a.id} withBorder component="section" aria-label={a.id}>
              <Group gap="sm" mb={4}>
                <Title order={2} size="h4">
                  {a.id}
                </Title>
                <SeverityBadge severity={a.severity} />
                {a.cvss_score !== null && <Text size="sm">CVSS {a.cvss_score.toFixed(1)}</Text>}
                {a.aliases.length > 0 && (
                  <Text size="sm" c="dimmed">
                    {a.aliases.join(', ')}
                  </Text>
                )}
              </Group>
              <Text mb="sm">{a.summary}</Text>
              {a.impacted_count === 0 ? (
                <Text size="sm" c="dimmed">
                  {ScreenMessages.securitySearchNoneImpacted}
                </Text>
              ) : (
                <>
                  <Table aria-label={`Versions ${a.id} impacts`} striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Package version</Table.Th>
                        <Table.Th>Repository</Table.Th>
                        <Table.Th>Component</Table.Th>
                        <Table.Th>Fixed in</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {a.impacted.map((v) => (
                        <Table.Tr key={`${v.package_id} ${v.version} ${v.repo} ${v.component} ${v.component_version}`}>
                          <Table.Td>{link(v)}</Table.Td>
                          <Table.Td>{v.repo}</Table.Td>
                          <Table.Td>
                            {v.component} {v.component_version}
                          </Table.Td>
                          <Table.Td>{v.fixed_versions.join(', ') || '—'}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                  {a.impacted_count > a.impacted.length && (
                    <Text size="sm" c="dimmed" mt={4}>
                      {format(ScreenMessages.securitySearchMoreImpacted, { count: String(a.impacted_count - a.impacted.length) })}
                    </Text>
                  )}
                </>
              )}
            </Card>
          ))}
          {result.data.licensed.length > 0 && (
            <Card withBorder component="section" aria-label="Licences">
              <Title order={2} size="h4" mb="sm">
                {format(ScreenMessages.securitySearchLicensed, { licenses: body.licenses.join(', ') })}
              </Title>
              <Table aria-label="Versions by licence" striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Package version</Table.Th>
                    <Table.Th>Repository</Table.Th>
                    <Table.Th>Component</Table.Th>
                    <Table.Th>Licences</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.data.licensed.map((v) => (
                    <Table.Tr key={`${v.package_id} ${v.version} ${v.repo} ${v.component} ${v.component_version}`}>
                      <Table.Td>{link(v)}</Table.Td>
                      <Table.Td>{v.repo}</Table.Td>
                      <Table.Td>
                        {v.component} {v.component_version}
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          {v.licenses.map((l) => (
                            <Badge key={l} size="sm" variant="light" color="gray">
                              {l}
                            </Badge>
                          ))}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
          )}
        </Stack>
      )}
    </>
  )
}
