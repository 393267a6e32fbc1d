import { Input, Stack, Tabs, Textarea } from '@mantine/core'
import { type ComponentType, useId, useState } from 'react'

export interface ReleaseNotesFieldProps {
  value: string
  error: string | undefined
  onChange: (value: string) => void
  Markdown: ComponentType<{ text: string }>
}

/** A bundle's release notes: markdown written in one tab, previewed in the other. */
export function ReleaseNotesField({ value, error, onChange, Markdown }: ReleaseNotesFieldProps) {
  const [tab, setTab] = useState<string | null>('write')
  const id = useId()
  return (
    <Stack gap={4}>
      <Input.Label htmlFor={id}>Release notes</Input.Label>
      <Tabs value={tab} onChange={setTab} variant="outline">
        <Tabs.List>
          <Tabs.Tab value="write">Write</Tabs.Tab>
          <Tabs.Tab value="preview" disabled={!value.trim()}>
            Preview
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="write" pt="xs">
          <Textarea
            id={id}
            description="Markdown"
            autosize
            minRows={4}
            maxRows={14}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={value}
            error={error}
            onChange={(e) => onChange(e.currentTarget.value)}
          />
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="xs" mih={80}>
          <Markdown text={value} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}
