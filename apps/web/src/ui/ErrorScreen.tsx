import { Anchor, Button, Code, Stack, Text, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { useState } from 'react'

export interface ErrorScreenProps {
  /** Technical details behind 'See more details'. */
  details?: string
}

/** The generic error screen of shell §8. */
export function ErrorScreen({ details }: ErrorScreenProps) {
  const [open, setOpen] = useState(false)
  return (
    <Stack align="center" gap="xs" py={64} px="md" ta="center" role="alert">
      <Title order={1}>{Messages.errorHeader}</Title>
      <Title order={2} size="h3" fw={500}>
        {Messages.errorSubheader}
      </Title>
      <Text>{Messages.errorUnexpected}</Text>
      <Text c="dimmed">{Messages.errorPersists}</Text>
      <Button variant="light" mt="sm" onClick={() => window.location.reload()}>
        Refresh the page
      </Button>
      {details && (
        <>
          <Anchor component="button" type="button" size="sm" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
            {Messages.errorSeeMoreDetails}
          </Anchor>
          {open && (
            <Code block maw={640} ta="left">
              {details}
            </Code>
          )}
        </>
      )}
    </Stack>
  )
}
