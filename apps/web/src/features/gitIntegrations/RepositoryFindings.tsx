import { Alert, Loader, Modal, Stack, Text } from '@mantine/core'
import { GIT_FINDINGS_PAGE_ROWS, type SelectedRepository } from '@trove/contracts/gitIntegrations'
import { format, Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { useState } from 'react'
import { FindingsTable } from '../../ui/FindingsTable'
import { useRepositoryFindings } from './api/repositories'

function FindingsOfRepository({ integrationId, repository }: { integrationId: string; repository: SelectedRepository }) {
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
        <FindingsTable
          label={ScreenMessages.gitScanFindings}
          rows={findings.data.data}
          total={findings.data.total_count}
          page={page}
          pageRows={GIT_FINDINGS_PAGE_ROWS}
          onPage={setPage}
        />
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
      {repository && <FindingsOfRepository integrationId={integrationId} repository={repository} />}
    </Modal>
  )
}
