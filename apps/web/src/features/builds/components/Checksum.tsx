import { Text } from '@mantine/core'
import { shortSum } from '../buildRules'

/** A checksum in a table cell: its first characters, the whole of it on hover and to assistive technology. */
export function Checksum({ value, label }: { value: string | null; label: string }) {
  if (!value)
    return (
      <Text span c="dimmed">
        —
      </Text>
    )
  return (
    <Text span ff="monospace" size="sm" title={value} aria-label={`${label} ${value}`}>
      {shortSum(value)}
    </Text>
  )
}
