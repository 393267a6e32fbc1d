import { Button, Group, Input, Stack, Text } from '@mantine/core'
import { newSource, type SourceDraft, type SourceField, type SourceType } from '../bundleForm'
import { type RepositoryOption, SOURCE_TYPE_LABELS, SourceFields } from './SourceFields'

const SOURCE_TYPES: SourceType[] = ['version', 'path', 'build', 'query']

export interface SourceListProps {
  title: string
  sources: SourceDraft[]
  /** What is wrong with the list as a whole (none given, say), shown in place of `hint` */
  error: string | undefined
  /** Said while the list is empty */
  hint: string
  errorsOf: (index: number) => Partial<Record<SourceField, string>>
  repositories: RepositoryOption[]
  onAdd: (source: SourceDraft) => void
  onChange: (index: number, next: SourceDraft) => void
  onRemove: (index: number) => void
}

/** The sources a bundle's files come from, with a button to add one of each type. */
export function SourceList({ title, sources, error, hint, errorsOf, repositories, onAdd, onChange, onRemove }: SourceListProps) {
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Input.Label component="h3" m={0}>
          {title}
        </Input.Label>
        <Group gap={6}>
          <Text size="xs" c="dimmed">
            Add
          </Text>
          {SOURCE_TYPES.map((t) => (
            <Button
              key={t}
              variant="light"
              size="compact-xs"
              aria-label={`Add ${SOURCE_TYPE_LABELS[t].toLowerCase()}`}
              onClick={() => onAdd(newSource(t))}
            >
              + {SOURCE_TYPE_LABELS[t]}
            </Button>
          ))}
        </Group>
      </Group>
      {sources.length === 0 && (
        <Text size="sm" c={error ? 'red' : 'dimmed'} role={error ? 'alert' : undefined}>
          {error ?? hint}
        </Text>
      )}
      {sources.map((s, i) => (
        <SourceFields
          key={s.id}
          source={s}
          index={i}
          errors={errorsOf(i)}
          repositories={repositories}
          onChange={(next) => onChange(i, next)}
          onRemove={() => onRemove(i)}
        />
      ))}
    </Stack>
  )
}
