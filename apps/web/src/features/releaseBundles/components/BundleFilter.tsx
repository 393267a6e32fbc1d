import { TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useState } from 'react'

/** How long typing must pause before the filter is sent. */
const FILTER_DEBOUNCE_MS = 300

/** A bundle list's filter: the text as typed, and what is sent as `q` once typing pauses. */
export function useBundleFilter(initial: string) {
  const [text, setText] = useState(initial)
  const [q] = useDebouncedValue(text, FILTER_DEBOUNCE_MS)
  return { text, setText, q }
}

/** The filter box: name, version or a contained file's checksum. */
export function BundleFilter({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return (
    <TextInput
      label="Filter bundles"
      placeholder="Name, version or a file’s checksum"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={340}
      maxLength={200}
    />
  )
}
