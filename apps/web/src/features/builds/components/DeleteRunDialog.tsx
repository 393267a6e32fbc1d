import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core'
import { BuildTexts } from '@trove/contracts/builds'
import { Messages } from '@trove/contracts/messages'
import { useDeleteBuildRun } from '../api/deleteBuildRun'

/** Asks before deleting a run; `run` null keeps it closed. */
export function DeleteRunDialog({
  name,
  run,
  onClose,
  onDeleted,
}: {
  name: string
  run: string | null
  onClose: () => void
  onDeleted?: (number: string) => void
}) {
  const remove = useDeleteBuildRun()
  const close = () => {
    remove.reset()
    onClose()
  }
  return (
    <Modal opened={run !== null} onClose={close} title={`${BuildTexts.deleteRunTitle} ${name} #${run ?? ''}?`}>
      <Stack>
        <Text>{BuildTexts.deleteRunBody}</Text>
        {remove.error && (
          <Alert color="red" variant="light" role="alert">
            {remove.error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => {
              if (run === null) return
              remove.mutate(
                { name, number: run },
                {
                  onSuccess: () => {
                    onClose()
                    onDeleted?.(run)
                  },
                },
              )
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
