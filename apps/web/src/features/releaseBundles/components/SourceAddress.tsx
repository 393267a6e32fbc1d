import { Anchor, Text } from '@mantine/core'

/**
 * Where a received bundle came from: a link when the source gave its URL, else the address it
 * was received from as it is (the receiving node records the caller's address).
 */
export function SourceAddress({ value }: { value: string | null }) {
  if (!value)
    return (
      <Text span c="dimmed" size="sm">
        —
      </Text>
    )
  if (!/^https?:\/\//i.test(value))
    return (
      <Text span size="sm">
        {value}
      </Text>
    )
  return (
    <Anchor href={value} target="_blank" rel="noreferrer" size="sm">
      {value}
    </Anchor>
  )
}
