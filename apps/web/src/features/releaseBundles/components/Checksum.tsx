import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core'

/** A checksum cut to its first characters, the whole of it on hover, to assistive technology and to copy. */
export function Checksum({ value, label = 'sha256' }: { value: string; label?: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text span ff="monospace" size="sm" title={value} aria-label={`${label} ${value}`}>
        {value.slice(0, 12)}…
      </Text>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="sm"
              aria-label={`Copy ${label} ${value}`}
              onClick={copy}
            >
              <CopyGlyph copied={copied} />
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  )
}

function CopyGlyph({ copied }: { copied: boolean }) {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      {copied ? (
        <path d="M5 12l5 5L20 7" />
      ) : (
        <>
          <rect x="9" y="9" width="12" height="12" rx="2" />
          <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
        </>
      )}
    </svg>
  )
}
