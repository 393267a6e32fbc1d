import { ActionIcon, Autocomplete, Fieldset, Group, Select, SimpleGrid, Textarea, TextInput, Tooltip } from '@mantine/core'
import { PACKAGE_TYPE_OPTIONS } from '@trove/contracts/repositoryConstants'
import type { SourceDraft, SourceField, SourceType } from '../bundleForm'

/** A repository a source may name, with its package type (a version source takes it from there). */
export interface RepositoryOption {
  key: string
  packageType: string
}

export const SOURCE_TYPE_LABELS: Record<SourceType, string> = {
  version: 'Package version',
  path: 'Tree path',
  build: 'Build',
  query: 'Query',
}

interface SourceFieldsProps {
  source: SourceDraft
  index: number
  errors: Partial<Record<SourceField, string>> | undefined
  repositories: RepositoryOption[]
  onChange: (next: SourceDraft) => void
  onRemove: () => void
}

/** One source of a new bundle: the fields its type asks for, in a group named after it. */
export function SourceFields({ source, index, errors = {}, repositories, onChange, onRemove }: SourceFieldsProps) {
  const set = (field: SourceField, value: string) => onChange({ ...source, [field]: value } as SourceDraft)
  const legend = `Source ${index + 1}: ${SOURCE_TYPE_LABELS[source.type]}`
  const repository =
    source.type === 'build' ? null : (
      <Autocomplete
        label="Repository"
        withAsterisk
        data={repositories.map((r) => r.key)}
        value={source.repoKey}
        error={errors.repoKey}
        comboboxProps={{ zIndex: 500 }}
        onChange={(key) => {
          // A version source takes the package type of the repository picked, unless one was chosen.
          const type = repositories.find((r) => r.key === key)?.packageType
          if (source.type === 'version' && type && !source.packageType) onChange({ ...source, repoKey: key, packageType: type })
          else set('repoKey', key)
        }}
      />
    )
  return (
    <Fieldset
      legend={legend}
      aria-label={legend}
      variant="filled"
      styles={{ legend: { fontWeight: 600, fontSize: 'var(--mantine-font-size-sm)' } }}
    >
      <Group align="flex-start" wrap="nowrap" gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs" style={{ flex: 1 }}>
          {source.type === 'version' && (
            <>
              {repository}
              <Select
                label="Package type"
                withAsterisk
                data={PACKAGE_TYPE_OPTIONS}
                value={source.packageType || null}
                error={errors.packageType}
                comboboxProps={{ zIndex: 500 }}
                onChange={(v) => set('packageType', v ?? '')}
              />
              <TextInput
                label="Package name"
                withAsterisk
                value={source.name}
                error={errors.name}
                onChange={(e) => set('name', e.currentTarget.value)}
              />
              <TextInput
                label="Version"
                withAsterisk
                value={source.version}
                error={errors.version}
                onChange={(e) => set('version', e.currentTarget.value)}
              />
            </>
          )}
          {source.type === 'path' && (
            <>
              {repository}
              <TextInput
                label="Path"
                description="A file or a folder; empty for the whole repository"
                value={source.path}
                error={errors.path}
                onChange={(e) => set('path', e.currentTarget.value)}
              />
            </>
          )}
          {source.type === 'build' && (
            <>
              <TextInput
                label="Build name"
                withAsterisk
                value={source.name}
                error={errors.name}
                onChange={(e) => set('name', e.currentTarget.value)}
              />
              <TextInput
                label="Build number"
                withAsterisk
                value={source.number}
                error={errors.number}
                onChange={(e) => set('number', e.currentTarget.value)}
              />
            </>
          )}
          {source.type === 'query' && (
            <>
              {repository}
              <TextInput
                label="Path pattern"
                description="* matches within a folder, ** across folders"
                value={source.path}
                error={errors.path}
                onChange={(e) => set('path', e.currentTarget.value)}
              />
              <Textarea
                label="Properties"
                description="One key=value a line; a file must have them all"
                autosize
                minRows={2}
                value={source.properties}
                error={errors.properties}
                onChange={(e) => set('properties', e.currentTarget.value)}
                style={{ gridColumn: '1 / -1' }}
              />
            </>
          )}
        </SimpleGrid>
        <Tooltip label="Remove this source" withArrow zIndex={500}>
          <ActionIcon variant="subtle" color="gray" mt={24} aria-label={`Remove source ${index + 1}`} onClick={onRemove}>
            <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </ActionIcon>
        </Tooltip>
      </Group>
    </Fieldset>
  )
}
