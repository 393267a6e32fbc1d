import { TagsInput } from '@mantine/core'
import { useDeferredValue, useState } from 'react'
import { useUsers } from './api/users'

/** Picks user names, suggesting matches from the server as the admin types. */
export function UserPicker({ label, value, onChange }: { label: string; value: string[]; onChange: (value: string[]) => void }) {
  const [search, setSearch] = useState('')
  const deferred = useDeferredValue(search)
  const users = useUsers({ search: deferred || undefined, pageSize: 20 })
  return (
    <TagsInput
      label={label}
      value={value}
      onChange={onChange}
      searchValue={search}
      onSearchChange={setSearch}
      data={(users.data?.items ?? []).map((u) => u.name).filter((n) => !value.includes(n))}
      placeholder="Type a user name"
      clearable
    />
  )
}
