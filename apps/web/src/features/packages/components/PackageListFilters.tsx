import { Group, Select } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { PACKAGE_TYPE_OPTIONS } from '@trove/contracts/repositoryConstants'
import { readableRepositoriesQuery } from '../api/repositoriesApi'

export interface ListFilters {
  packageType: string | null
  repository: string | null
}

export interface PackageListFiltersProps {
  value: ListFilters
  onChange: (next: ListFilters) => void
}

/** The list's own filters, before or beside a search: one package type, one repository. */
export function PackageListFilters({ value, onChange }: PackageListFiltersProps) {
  const repositories = useQuery(readableRepositoriesQuery()).data ?? []
  const shown = value.packageType ? repositories.filter((r) => r.packageType === value.packageType) : repositories
  return (
    <Group gap="sm">
      <Select
        aria-label="Filter by package type"
        placeholder="All types"
        size="sm"
        w={180}
        clearable
        searchable
        value={value.packageType}
        data={PACKAGE_TYPE_OPTIONS}
        onChange={(packageType) => {
          const keep = value.repository && repositories.find((r) => r.key === value.repository)?.packageType === packageType
          onChange({ packageType, repository: keep ? value.repository : null })
        }}
      />
      <Select
        aria-label="Filter by repository"
        placeholder="All repositories"
        size="sm"
        w={220}
        clearable
        searchable
        value={value.repository}
        data={shown.map((r) => r.key)}
        onChange={(repository) => onChange({ ...value, repository })}
      />
    </Group>
  )
}
