import { Alert, Anchor, Button, Checkbox, Group, List, Modal, Stack, Text } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { QuickSetupResponse } from '@trove/contracts/repositories'
import {
  DEFAULT_UPSTREAMS,
  PACKAGE_TYPE_NAMES,
  PACKAGE_TYPE_OPTIONS,
  type PackageTypeName,
  SAMPLE_REPOSITORIES,
} from '@trove/contracts/repositoryConstants'
import { ARTIFACTS_TREE_PATH } from '@trove/contracts/searchConstants'
import { useState } from 'react'
import { ApiError } from '../../lib/api'
import { quickSetup } from './api/quickSetup'

export interface QuickSetupFormProps {
  /** A package type to start with ticked (quick repository creation from a package type). */
  initialType?: string | null
  /** Leaves the quick setup (closes the panel), e.g. when a link is followed. */
  onLeave?: () => void
  /** The next steps the success dialog offers after its links to the new repositories. */
  nextSteps?: React.ReactNode
}

/** What quick setup makes for one package type, as the form tells it before it does. */
export function samplesOf(type: PackageTypeName): string[] {
  return SAMPLE_REPOSITORIES[type].map((s) =>
    s.rclass === 'remote'
      ? `${s.key} (proxies ${DEFAULT_UPSTREAMS[type]})`
      : s.rclass === 'virtual'
        ? `${s.key} (both, one URL)`
        : s.key,
  )
}

/**
 * Quick setup (shell §2.6): tick package types; Trove makes a local, a remote and a virtual
 * repository for each in one go, and the success dialog says where to go next.
 */
export function QuickSetupForm({ initialType, onLeave, nextSteps }: QuickSetupFormProps) {
  const queryClient = useQueryClient()
  const known = PACKAGE_TYPE_OPTIONS.some((o) => o.value === initialType)
  const [types, setTypes] = useState<string[]>(known && initialType ? [initialType] : [])
  const [made, setMade] = useState<QuickSetupResponse | null>(null)
  const create = useMutation({
    mutationFn: () => quickSetup({ packageTypes: types as PackageTypeName[] }),
    onSuccess: (answer) => {
      setMade(answer)
      void queryClient.invalidateQueries()
    },
  })
  return (
    <Stack>
      <Checkbox.Group
        label="Package types"
        description="Each gets a local repository for your own packages, a remote one that proxies the public registry, and a virtual one that serves both from one URL."
        value={types}
        onChange={(v) => {
          setTypes(v)
          create.reset()
        }}
      >
        <Stack gap={6} mt="xs">
          {PACKAGE_TYPE_OPTIONS.map((o) => (
            <Checkbox key={o.value} value={o.value} label={o.label} />
          ))}
        </Stack>
      </Checkbox.Group>
      {types.length > 0 && (
        <div>
          <Text size="sm" fw={500}>
            Trove will create
          </Text>
          <List size="sm" aria-label="Repositories to create">
            {(types as PackageTypeName[]).flatMap((t) => samplesOf(t).map((s) => <List.Item key={s}>{s}</List.Item>))}
          </List>
        </div>
      )}
      {create.isError && (
        <Alert color="red" title="No repository was created">
          {create.error instanceof ApiError && create.error.message
            ? create.error.message
            : 'The repositories could not be created'}
        </Alert>
      )}
      <Group>
        <Button onClick={() => create.mutate()} disabled={types.length === 0} loading={create.isPending}>
          Create repositories
        </Button>
      </Group>
      <Modal opened={made !== null} onClose={() => setMade(null)} title="Your repositories are ready">
        <Stack>
          <List size="sm" aria-label="Created repositories">
            {made?.repositories.map((r) => (
              <List.Item key={r.key}>
                <Anchor component={Link} to={`${ARTIFACTS_TREE_PATH}/${r.key}`} onClick={onLeave}>
                  {r.key}
                </Anchor>{' '}
                <Text span size="xs" c="dimmed">
                  {PACKAGE_TYPE_NAMES[r.packageType]} · {r.rclass}
                </Text>
              </List.Item>
            ))}
          </List>
          {nextSteps}
          <Group justify="flex-end">
            <Button onClick={() => setMade(null)}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  )
}
