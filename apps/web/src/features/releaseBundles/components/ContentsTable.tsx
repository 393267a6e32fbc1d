import { Table, Text } from '@mantine/core'
import type { BundleFile } from '@trove/contracts/distribution'
import { formatSize } from '../../../lib/format'
import { Checksum } from './Checksum'

/** A bundle's files: where each is, the package version it belongs to, its size and sha256. */
export function ContentsTable({ files }: { files: BundleFile[] }) {
  if (files.length === 0) return <Text c="dimmed">No files</Text>
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped withTableBorder aria-label="Contents">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Repository / path</Table.Th>
            <Table.Th>Package</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th>sha256</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((f) => (
            <Table.Tr key={`${f.repoKey}/${f.path}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text span size="sm" c="dimmed">
                  {f.repoKey}/
                </Text>
                <Text span size="sm">
                  {f.path}
                </Text>
              </Table.Td>
              <Table.Td>
                {f.packageName ? (
                  <Text size="sm">
                    {f.packageName}
                    {f.packageVersion ? ` ${f.packageVersion}` : ''}
                    {f.packageType && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        ({f.packageType})
                      </Text>
                    )}
                  </Text>
                ) : (
                  <Text span c="dimmed">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatSize(f.size)}
              </Table.Td>
              <Table.Td>
                <Checksum value={f.sha256} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
