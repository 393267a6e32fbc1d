import { Alert, Code, Loader, Modal, Pagination, Stack, Table, Text } from '@mantine/core'
import { GIT_FINDINGS_PAGE_ROWS, type SelectedRepository } from '@trove/contracts/gitIntegrations'
import { format, Messages, ScreenMessages } from '@trove/contracts/messages'
import { useState } from 'react'
import { SeverityBadge } from '../../ui/SeverityBadge'
import { useRepositoryFindings } from './api/repositories'

function FindingsTable({ integrationId, repository }: { integrationId: string; repository: SelectedRepository }) {
  const [page, setPage] = useState(1)
  const findings = useRepositoryFindings(integrationId, repository.fullName, page)
  const { scan } = repository
  return (
    <Stack gap="sm">
      {scan.commit && scan.scannedAt !== null && (
        <Text size="sm" c="dimmed">
          {format(ScreenMessages.gitScanFindingsAt, {
            repository: repository.fullName,
            commit: scan.commit.slice(0, 12),
            when: new Date(scan.scannedAt).toLocaleString(),
          })}
        </Text>
      )}
      {findings.isPending && <Loader size="sm" aria-label="Loading findings" />}
      {findings.isError && (
        <Alert color="red" variant="light" role="alert">
          {findings.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {findings.isSuccess && findings.data.total_count === 0 && <Text>{ScreenMessages.gitScanNoFindings}</Text>}
      {findings.isSuccess && findings.data.total_count > 0 && (
        <>
          <Table striped aria-label={ScreenMessages.gitScanFindings}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Advisory</Table.Th>
                <Table.Th>Severity</Table.Th>
                <Table.Th>Component</Table.Th>
                <Table.Th>Version</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>Fixed in</Table.Th>
                <Table.Th>Summary</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {findings.data.data.map((f) => (
                <Table.Tr key={`${f.advisory_id} ${f.ecosystem} ${f.component} ${f.version} ${f.path}`}>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {f.advisory_id}
                    </Text>
                    {f.aliases.length > 0 && (
                      <Text size="xs" c="dimmed">
                        {f.aliases.join(', ')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <SeverityBadge severity={f.severity} />
                  </Table.Td>
                  <Table.Td>
                    {f.component}
                    <Text size="xs" c="dimmed">
                      <Code>{f.path}</Code> ({f.ecosystem})
                    </Text>
                  </Table.Td>
                  <Table.Td>{f.version}</Table.Td>
                  <Table.Td>{f.fixed_versions.join(', ') || '—'}</Table.Td>
                  <Table.Td>{f.summary}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {findings.data.total_count > GIT_FINDINGS_PAGE_ROWS && (
            <Pagination
              total={Math.ceil(findings.data.total_count / GIT_FINDINGS_PAGE_ROWS)}
              value={page}
              onChange={setPage}
              aria-label="Finding pages"
            />
          )}
        </>
      )}
    </Stack>
  )
}

/** A selected repository's findings: its dependencies that advisories affect, 20 a page, worst first. */
export function RepositoryFindings({
  integrationId,
  repository,
  onClose,
}: {
  integrationId: string
  repository: SelectedRepository | null
  onClose: () => void
}) {
  return (
    <Modal
      opened={repository !== null}
      onClose={onClose}
      size={960}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={repository ? format(ScreenMessages.gitScanFindingsOf, { repository: repository.fullName }) : ''}
    >
      {repository && <FindingsTable integrationId={integrationId} repository={repository} />}
    </Modal>
  )
}
