import { NativeSelect } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { useProjects } from './api/projects'

/** Chooses the project an overview or members screen shows (kept in the address as ?project=). */
export function ProjectPicker({ value, to }: { value: string; to: '/admin/projects/overview' | '/admin/projects/members' }) {
  const projects = useProjects()
  const navigate = useNavigate()
  return (
    <NativeSelect
      label="Project"
      w={280}
      mb="md"
      data={[
        { value: '', label: 'Choose a project' },
        ...(projects.data ?? []).map((p) => ({ value: p.key, label: `${p.displayName} (${p.key})` })),
      ]}
      value={value}
      onChange={(e) => void navigate({ to, search: { project: e.currentTarget.value } })}
    />
  )
}
