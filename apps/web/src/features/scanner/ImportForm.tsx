import { Alert, Button, FileInput, Group, Stack, Text } from '@mantine/core'
import { format, Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { type FormEvent, useState } from 'react'
import { notify } from '../../lib/notify'
import { useImportAdvisories } from './api/database'

/** True for the files the import reads: an OSV zip, or one record or an array as JSON. */
export const isOsvFile = (file: File) => /\.(zip|json)$/i.test(file.name)

/** Uploads an OSV zip or JSON file; the import is one transaction, so a refused file changes nothing. */
export function ImportForm() {
  const upload = useImportAdvisories()
  const [file, setFile] = useState<File | null>(null)
  const [error, setError] = useState<string | null>(null)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!file || !isOsvFile(file)) {
      setError(ScreenMessages.scannerImportFileType)
      return
    }
    upload.mutate(file, {
      onSuccess: (result) => {
        notify({
          color: 'green',
          message: format(ScreenMessages.scannerImported, {
            records: result.records,
            versions: result.reevaluated.versions,
          }),
        })
        setFile(null)
      },
    })
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Upload advisories">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          An OSV zip as osv.dev publishes it (all.zip of an ecosystem), one OSV record, or an array of records. Records already
          held are replaced.
        </Text>
        <FileInput
          label="OSV file"
          placeholder="Choose a .zip or .json file"
          accept=".zip,.json,application/zip,application/json"
          value={file}
          onChange={(f) => {
            setFile(f)
            setError(null)
            upload.reset()
          }}
          clearable
          error={error}
        />
        {upload.error && (
          <Alert color="red" variant="light" role="alert">
            {upload.error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={upload.isPending} disabled={!file}>
            Import
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
